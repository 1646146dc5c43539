import { activityRoutes } from '../../common/api/activity';
import { startActivityTracker, type ActivityTracker } from './activity-tracker';
import { api, ApiRequestError } from './api-client';

export { logPageView } from './activity-log';

let running: ActivityTracker | null = null;

/** Starts the tracker on this window and document; answers its stop (which sends a last sync). */
export function startTracking(): () => void {
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
    send: async (activeTime, keepalive) => {
      try {
        await api(activityRoutes.sync, { body: { activeTime } }, { keepalive });
      } catch (error) {
        // 401: the session has ended, and the seconds with it; kept, they would be retried (and
        // refused) every minute until the page notices. Any other failure keeps them for the next sync.
        if (error instanceof ApiRequestError && error.status === 401) return;
        throw error;
      }
    },
  });
  running = tracker;
  return () => {
    if (running === tracker) running = null;
    void tracker.stop();
  };
}

/** Sends the active time counted so far, if a tracker runs. */
export async function flushTracking(): Promise<void> {
  await running?.flush();
}
