import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ACTIVITY_TRACKING } from '../../common/api/activity';
import { startActivityTracker, type ActivityTracker } from './activity-tracker';

class FakeDocument extends EventTarget {
  visibilityState: DocumentVisibilityState = 'visible';

  show(state: DocumentVisibilityState): void {
    this.visibilityState = state;
    this.dispatchEvent(new Event('visibilitychange'));
  }
}

interface Harness {
  tracker: ActivityTracker;
  win: EventTarget;
  doc: FakeDocument;
  /** Every sync as [activeTime, keepalive]. */
  sent: [number, boolean][];
  /** Makes the next syncs fail (true) or succeed again (false). */
  failing: (fail: boolean) => void;
}

let started: ActivityTracker[] = [];

function start(visibility: DocumentVisibilityState = 'visible'): Harness {
  const win = new EventTarget();
  const doc = new FakeDocument();
  doc.visibilityState = visibility;
  const sent: [number, boolean][] = [];
  let fail = false;
  const tracker = startActivityTracker({
    now: () => Date.now(),
    every: (ms, tick) => {
      const id = setInterval(tick, ms);
      return () => {
        clearInterval(id);
      };
    },
    window: win,
    document: doc,
    send: (activeTime, keepalive) => {
      sent.push([activeTime, keepalive]);
      return fail ? Promise.reject(new Error('503: down')) : Promise.resolve({ countedSeconds: activeTime, totalActiveTime: activeTime });
    },
  });
  started.push(tracker);
  return {
    tracker,
    win,
    doc,
    sent,
    failing: (value) => {
      fail = value;
    },
  };
}

/** Input every 5 s for `ms`: a member busy on the page. */
async function busyFor(win: EventTarget, ms: number, type = 'mousemove'): Promise<void> {
  for (let elapsed = 0; elapsed < ms; elapsed += 5_000) {
    win.dispatchEvent(new Event(type));
    await vi.advanceTimersByTimeAsync(Math.min(5_000, ms - elapsed));
  }
}

const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-03-04T12:00:00Z') });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(async () => {
  for (const tracker of started) await tracker.stop();
  started = [];
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('activity tracker', () => {
  test('counts a busy minute and syncs it at 60 s, then every 60 s', async () => {
    const { win, sent } = start();
    await busyFor(win, 59_000);
    expect(sent).toEqual([]);
    await busyFor(win, 1_000);
    expect(sent).toEqual([[60, false]]);
    await busyFor(win, 60_000);
    expect(sent).toEqual([
      [60, false],
      [60, false],
    ]);
  });

  test('every tracked input event keeps the member active', async () => {
    for (const type of ACTIVITY_TRACKING.inputEvents) {
      const { win, sent } = start();
      await busyFor(win, 60_000, type);
      expect(sent, type).toEqual([[60, false]]);
    }
  });

  test('goes idle 30 s after the last input: only those 30 s count', async () => {
    const { win, sent } = start();
    win.dispatchEvent(new Event('click'));
    await wait(60_000);
    expect(sent).toEqual([[30, false]]);
  });

  test('idle from 30 s after the last input even when the check notices later', async () => {
    const { win, sent } = start();
    await wait(5_000);
    win.dispatchEvent(new Event('keypress'));
    // The checks at 30 s and 60 s: the second one sees 55 s without input, idle since 35 s.
    await wait(55_000);
    expect(sent).toEqual([[35, false]]);
  });

  test('a hidden tab is idle at once, and active again when it shows', async () => {
    const { win, doc, sent } = start();
    await busyFor(win, 10_000);
    doc.show('hidden');
    await wait(30_000);
    doc.show('visible');
    await wait(20_000);
    // 10 s before hiding, 20 s since showing (within 30 s of it, so still active).
    expect(sent).toEqual([[30, false]]);
  });

  test('input brings an idle member back', async () => {
    const { win, sent } = start();
    await wait(45_000);
    win.dispatchEvent(new Event('scroll'));
    await wait(15_000);
    expect(sent).toEqual([[45, false]]);
  });

  test('a page opened in a hidden tab counts nothing and sends nothing', async () => {
    const { win, sent } = start('hidden');
    win.dispatchEvent(new Event('mousemove'));
    await wait(5 * 60_000);
    expect(sent).toEqual([]);
  });

  test('an idle tab sends nothing: no call keeps its session alive', async () => {
    const { sent } = start();
    await wait(10 * 60_000);
    // The first 30 s after opening, then silence.
    expect(sent).toEqual([[30, false]]);
  });

  test('a failed sync keeps its seconds for the next; only a success spends them', async () => {
    const { win, sent, failing } = start();
    failing(true);
    await busyFor(win, 60_000);
    expect(sent).toEqual([[60, false]]);
    expect(console.warn).toHaveBeenCalledTimes(1);
    failing(false);
    await busyFor(win, 60_000);
    expect(sent.at(-1)).toEqual([120, false]);
    await busyFor(win, 60_000);
    expect(sent.at(-1)).toEqual([60, false]);
  });

  test('one sync sends at most 120 s and keeps the rest', async () => {
    const { win, sent, failing } = start();
    failing(true);
    await busyFor(win, 180_000);
    // 60, then 120, then 180 of which 120 go.
    expect(sent.map(([seconds]) => seconds)).toEqual([60, 120, 120]);
    failing(false);
    await busyFor(win, 60_000);
    // 180 + 60 unsent: 120 go, 120 stay.
    expect(sent.at(-1)).toEqual([120, false]);
    await wait(60_000);
    // The last input came 5 s before that sync, so 25 s more count: 120 kept + 25, capped at 120.
    expect(sent.at(-1)).toEqual([120, false]);
    await wait(60_000);
    expect(sent.at(-1)).toEqual([25, false]);
  });

  test('pagehide sends what is counted with keepalive, once', async () => {
    const { win, sent } = start();
    await busyFor(win, 25_000);
    win.dispatchEvent(new Event('pagehide'));
    win.dispatchEvent(new Event('pagehide'));
    await wait(0);
    expect(sent).toEqual([[25, true]]);
  });

  test('whole seconds only: the fraction waits for the next sync', async () => {
    const { win, sent } = start();
    await wait(1_500);
    win.dispatchEvent(new Event('pagehide'));
    await wait(1_000);
    win.dispatchEvent(new Event('pagehide'));
    await wait(0);
    expect(sent).toEqual([
      [1, true],
      [1, true],
    ]);
  });

  test('stop sends a last sync, then nothing listens or ticks', async () => {
    const { tracker, win, doc, sent } = start();
    await busyFor(win, 40_000);
    await tracker.stop();
    expect(sent).toEqual([[40, false]]);
    win.dispatchEvent(new Event('mousedown'));
    doc.show('visible');
    win.dispatchEvent(new Event('pagehide'));
    await wait(5 * 60_000);
    await tracker.stop();
    expect(sent).toEqual([[40, false]]);
  });

  test('stop with nothing counted sends nothing', async () => {
    const { tracker, sent } = start('hidden');
    await wait(10_000);
    await tracker.stop();
    expect(sent).toEqual([]);
  });

  test('flush sends now and keeps tracking', async () => {
    const { tracker, win, sent } = start();
    await busyFor(win, 20_000);
    await tracker.flush();
    await busyFor(win, 40_000);
    expect(sent).toEqual([
      [20, false],
      [40, false],
    ]);
  });

  test('a failing stop only warns', async () => {
    const { tracker, win, failing } = start();
    await busyFor(win, 10_000);
    failing(true);
    await expect(tracker.stop()).resolves.toBeUndefined();
    expect(console.warn).toHaveBeenCalledTimes(1);
  });
});
