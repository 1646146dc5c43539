import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { activityRoutes } from '../../shared/api/activity';
import { logActivity } from './activity-log';
import { startActivityTracker, type ActivityTracker } from './activity-tracker';
import { api } from './api-client';

let running: ActivityTracker | null = null;

/** Sends the active time counted so far: signing out calls it first, while the session still accepts it. */
export async function flushActivity(): Promise<void> {
  await running?.flush();
}

function useActivityTracker(memberName: string): void {
  useEffect(() => {
    const tracker = startActivityTracker({
      now: Date.now,
      every: (ms, tick) => {
        const id = window.setInterval(tick, ms);
        return () => {
          window.clearInterval(id);
        };
      },
      window,
      document,
      send: (activeTime, keepalive) => api(activityRoutes.sync, { body: { activeTime } }, { keepalive }),
    });
    running = tracker;
    return () => {
      if (running === tracker) running = null;
      void tracker.stop();
    };
    // A new member (after a sign-out and in again) starts a tracker of their own.
  }, [memberName]);
}

/** One page_view per route the member opens; the ref keeps StrictMode's second effect run from logging it twice. */
function usePageViews(): void {
  const [location] = useLocation();
  const logged = useRef<string | null>(null);
  useEffect(() => {
    if (logged.current === location) return;
    logged.current = location;
    void logActivity('page_view', { path: location });
  }, [location]);
}

/**
 * Mounted by the auth gate beside a signed-in member's pages, so tracking runs exactly while
 * someone is signed in: it starts with the pages and stops (with a last sync) when they go.
 */
export function SignedInActivity({ memberName }: { memberName: string }): null {
  useActivityTracker(memberName);
  usePageViews();
  return null;
}
