import { describe, expect, it } from 'vitest';
import { CheckPacer, type PacingOptions } from './pacing.js';

const OPTIONS: PacingOptions = { basePauseMs: 50, longestPauseMs: 1000, busyUtilization: 0.75, deferBudgetMs: 600 };

/** A pacer on a fake clock and a fake event loop whose busy share the test sets. */
function pacerWith(busy: () => number, options: PacingOptions = OPTIONS) {
  const waits: number[] = [];
  const pacer = new CheckPacer(options, () => busy, (ms) => {
    waits.push(ms);
    return Promise.resolve();
  });
  return { pacer, waits };
}

describe('CheckPacer', () => {
  it('pauses briefly after a light check and as long as a heavy one took, up to a second', async () => {
    const { pacer, waits } = pacerWith(() => 0.1);
    await pacer.beforeNext(5, 10);
    await pacer.beforeNext(400, 9);
    await pacer.beforeNext(5_000, 8);
    expect(waits).toEqual([50, 400, 1000]);
    expect(pacer.deferred).toBe(0);
  });

  it('waits for a busy server in 50 ms windows, within its share of the budget, and goes on when it quietens', async () => {
    let share = 0.95;
    const { pacer, waits } = pacerWith(() => share);
    // 600 ms over 4 checks: at most 150 ms (three windows) before this one.
    await pacer.beforeNext(5, 4);
    expect(waits).toEqual([50, 50, 50, 50]);
    expect(pacer.deferred).toBe(150);
    share = 0.2;
    await pacer.beforeNext(5, 3);
    expect(waits.slice(4)).toEqual([50]);
  });

  it('never waits for a busy server longer than its budget over a whole run', async () => {
    const { pacer } = pacerWith(() => 1);
    for (let left = 57; left > 0; left -= 1) await pacer.beforeNext(5, left);
    expect(pacer.deferred).toBeLessThanOrEqual(OPTIONS.deferBudgetMs);
    expect(pacer.deferred).toBeGreaterThan(OPTIONS.deferBudgetMs / 2);
  });

  it('does not pace at all with a pause of 0', async () => {
    const { pacer, waits } = pacerWith(() => 1, { ...OPTIONS, basePauseMs: 0 });
    await pacer.beforeNext(500, 3);
    expect(waits).toEqual([]);
  });
});
