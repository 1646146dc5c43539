import { ACTIVITY_LIMITS, ACTIVITY_TRACKING } from '../../common/api/activity';

/** What the tracker needs from the browser; tests hand in fakes, so the whole machine runs on fake timers. */
export interface TrackerEnvironment {
  now: () => number;
  /** Calls `tick` every `ms`; answers a function that stops it. */
  every: (ms: number, tick: () => void) => () => void;
  /** Hears the input events and `pagehide` (the window). */
  window: EventTarget;
  /** Hears `visibilitychange` and tells whether the page is visible (the document). */
  document: EventTarget & { readonly visibilityState: DocumentVisibilityState };
  /** Posts whole seconds of active time; rejects when the call fails. */
  send: (activeTime: number, keepalive: boolean) => Promise<unknown>;
}

export interface ActivityTracker {
  /** Sends what has been counted now (the sign-out button does, while the session still exists). */
  flush: () => Promise<void>;
  /** Removes every listener and timer, then sends what is left. */
  stop: () => Promise<void>;
}

// mousemove fires dozens of times a second: within a second of the last input seen, an input
// event does nothing but read the clock. A second is nothing against the 30 s idle limit.
const INPUT_THROTTLE_MS = 1_000;
const LISTEN = { capture: true, passive: true } as const;

/**
 * Counts the time a member is active on the page: active from any input, idle 30 s after the last
 * one (noticed by a check every 30 s, or at once when the tab is hidden), active again on input or
 * when the tab shows. Only active time counts, in milliseconds; whole seconds go to the server every
 * 60 s, on `pagehide` (keepalive, so the call outlives the page) and on stop. A sync takes the
 * seconds out of the count while it is in flight and gives them back if it fails, so the count
 * is spent only by a successful sync. Nothing is sent for 0 seconds: each call renews the session,
 * and an idle tab must let it end.
 */
export function startActivityTracker(env: TrackerEnvironment): ActivityTracker {
  const { idleMs, idleCheckMs, syncMs, inputEvents } = ACTIVITY_TRACKING;
  let lastInput = env.now();
  // Opening the page (or signing in) is itself input; a page opened in a background tab is not.
  let activeSince: number | null = env.document.visibilityState === 'visible' ? lastInput : null;
  let unsentMs = 0;
  let stopped = false;

  /** Counts active time up to `time`; idle from 30 s after the last input, even if the check has not run yet. */
  const settle = (time: number) => {
    if (activeSince === null) return;
    const idleAt = lastInput + idleMs;
    unsentMs += Math.max(0, Math.min(time, idleAt) - activeSince);
    activeSince = time < idleAt ? time : null;
  };

  const onInput = () => {
    const time = env.now();
    if (activeSince !== null && time - lastInput < INPUT_THROTTLE_MS) return;
    settle(time);
    lastInput = time;
    // A hidden page stays idle whatever events it still gets (a scroll from a layout change).
    if (activeSince === null && env.document.visibilityState === 'visible') activeSince = time;
  };

  const onVisibility = () => {
    const time = env.now();
    settle(time);
    if (env.document.visibilityState === 'visible') {
      lastInput = time;
      activeSince = time;
    } else {
      activeSince = null;
    }
  };

  const sync = async (keepalive: boolean) => {
    settle(env.now());
    const seconds = Math.min(Math.floor(unsentMs / 1000), ACTIVITY_LIMITS.maxSyncSeconds);
    if (seconds === 0) return;
    unsentMs -= seconds * 1000;
    try {
      await env.send(seconds, keepalive);
    } catch (error) {
      unsentMs += seconds * 1000;
      // Only the console: a lost sync is no error of the app's, and the next one carries the seconds.
      console.warn('Activity sync failed; the time goes with the next sync.', error);
    }
  };

  const onPageHide = () => {
    void sync(true);
  };

  for (const type of inputEvents) env.window.addEventListener(type, onInput, LISTEN);
  env.window.addEventListener('pagehide', onPageHide);
  env.document.addEventListener('visibilitychange', onVisibility);
  const stopIdleCheck = env.every(idleCheckMs, () => {
    settle(env.now());
  });
  const stopSyncs = env.every(syncMs, () => {
    void sync(false);
  });

  return {
    flush: () => sync(false),
    stop: () => {
      if (stopped) return Promise.resolve();
      stopped = true;
      for (const type of inputEvents) env.window.removeEventListener(type, onInput, LISTEN);
      env.window.removeEventListener('pagehide', onPageHide);
      env.document.removeEventListener('visibilitychange', onVisibility);
      stopIdleCheck();
      stopSyncs();
      return sync(false);
    },
  };
}
