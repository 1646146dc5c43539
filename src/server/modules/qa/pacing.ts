import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The run is background work beside members' requests. A few of its checks hold the event loop for
 * tens of milliseconds (a burst of 50 votes, an AI summary's input, a large component's list); a
 * pause between checks spreads those moments out, so members' reads meet at most one of them
 * at a time.
 */
export const DEFAULT_PAUSE_BETWEEN_CHECKS_MS = 50;

export interface PacingOptions {
  /** The pause after a light check; 0 turns all pacing off (tests). */
  basePauseMs: number;
  /**
   * After a heavy check (the integrity scans, the bursts of parallel writes) the run rests as long
   * as that check took, up to this: it never holds the machine more than half the time.
   */
  longestPauseMs: number;
  /** The event loop counts as busy with members' requests above this share of a window. */
  busyUtilization: number;
  /**
   * How long one run may wait in all for a busy server to quieten, spread evenly over its checks:
   * under any load the run still ends in bounded time.
   */
  deferBudgetMs: number;
}

export const DEFAULT_PACING: PacingOptions = { basePauseMs: DEFAULT_PAUSE_BETWEEN_CHECKS_MS, longestPauseMs: 1000, busyUtilization: 0.75, deferBudgetMs: 6000 };

const WINDOW_MS = 50;

/** The event loop's busy share over a stretch of waiting: how much members' requests are using it. */
export type UtilizationMeter = () => () => number;

const eventLoopMeter: UtilizationMeter = () => {
  const start = performance.eventLoopUtilization();
  return () => performance.eventLoopUtilization(start).utilization;
};

/** Spaces one run's checks; see PacingOptions. */
export class CheckPacer {
  private deferredMs = 0;

  constructor(
    private readonly options: PacingOptions,
    private readonly meter: UtilizationMeter = eventLoopMeter,
    private readonly wait: (ms: number) => Promise<unknown> = sleep,
  ) {}

  /** Waits before the next check, given how long the last one took and how many are left (this one included). */
  async beforeNext(previousDurationMs: number, checksLeft: number): Promise<void> {
    const { basePauseMs, longestPauseMs, busyUtilization, deferBudgetMs } = this.options;
    if (basePauseMs === 0) return;
    let measure = this.meter();
    await this.wait(Math.min(longestPauseMs, Math.max(basePauseMs, previousDurationMs)));
    const allowance = (deferBudgetMs - this.deferredMs) / Math.max(1, checksLeft);
    let waited = 0;
    while (measure() >= busyUtilization && waited + WINDOW_MS <= allowance) {
      measure = this.meter();
      await this.wait(WINDOW_MS);
      waited += WINDOW_MS;
    }
    this.deferredMs += waited;
  }

  /** The time spent waiting for a busy server so far in this run. */
  get deferred(): number {
    return this.deferredMs;
  }
}
