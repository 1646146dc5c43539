import { activityRoutes } from '../../shared/api/activity';
import { startActivityTracker, type ActivityTracker } from './activity-tracker';
import { api } from './api-client';

export { logActivity } from './activity-log';

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
    send: (activeTime, keepalive) => api(activityRoutes.sync, { body: { activeTime } }, { keepalive }),
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
