import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';

// The tracker and the activity log load beside the first screen, not in it: the main page's
// initial JavaScript carries only this mount point. A chunk that fails to load costs the
// analytics a session, never the page (no lazy component to throw into the error boundary).
const loadSession = () => import('./activity-session');

function warn(error: unknown): void {
  console.warn('Activity tracking could not load.', error);
}

/** Sends the active time counted so far: signing out calls it first, while the session still accepts it. */
export async function flushActivity(): Promise<void> {
  try {
    await (await loadSession()).flushTracking();
  } catch (error) {
    warn(error);
  }
}

/**
 * Mounted by the auth gate beside a signed-in member's pages, so tracking runs exactly while
 * someone is signed in: it starts with the pages and stops (with a last sync) when they go. Each
 * route the member opens is logged as a page view.
 */
export function SignedInActivity({ memberName }: { memberName: string }): null {
  useEffect(() => {
    let stop: (() => void) | undefined;
    let gone = false;
    loadSession()
      .then((session) => {
        if (!gone) stop = session.startTracking();
      })
      .catch(warn);
    return () => {
      gone = true;
      stop?.();
    };
    // A new member (signed out and in again) gets a tracker of their own.
  }, [memberName]);

  const [location] = useLocation();
  // The ref keeps StrictMode's second run of the effect from logging the same view twice.
  const logged = useRef<string | null>(null);
  useEffect(() => {
    if (logged.current === location) return;
    logged.current = location;
    loadSession()
      .then((session) => session.logPageView(location))
      .catch(warn);
  }, [location]);
  return null;
}
