/** Start-up: spawn of the built server to its first 200 on GET /api/health. */
import { fileURLToPath } from 'node:url';
import { say, step } from '../lib/output.js';
import { makeTempDir } from '../lib/processes.js';
import type { Step, TargetResult } from '../lib/results.js';
import { unmeasured } from '../lib/scenario.js';
import { SETTINGS } from '../lib/settings.js';
import { measureStartup, type StartupResult } from '../lib/startup.js';
import { fixed } from '../lib/table.js';

export const STARTUP_TARGET_MS = 2000;
export const DIST_MAIN = fileURLToPath(new URL('../../dist/server/main.js', import.meta.url));
const NAME = 'start-up to first /api/health 200';

export async function runStartup(databaseUrl: string | undefined): Promise<Step<StartupResult>> {
  say(`Start-up: node dist/server/main.js, 1 warm-up start then ${SETTINGS.startupRuns} measured, spawn → first 200 of GET /api/health`);
  const result = await step(() =>
    measureStartup({ mainFile: DIST_MAIN, dataDir: makeTempDir('startup'), databaseUrl, runs: SETTINGS.startupRuns, timeoutMs: 15_000, pollIntervalMs: 10 }),
  );
  if (result.status === 'done') {
    const { summaryMs, samplesMs, shutdownMs, warmUpMs } = result.result;
    say(
      `  min ${fixed(summaryMs.min, 0)} ms · median ${fixed(summaryMs.median, 0)} ms · max ${fixed(summaryMs.max, 0)} ms ` +
        `(runs: ${samplesMs.map((ms) => fixed(ms, 0)).join(', ')}; first start with migrations: ${fixed(warmUpMs, 0)} ms)`,
    );
    say(`  graceful shutdown (SIGTERM → exit, idle): median ${fixed(shutdownMs.median, 0)} ms, max ${fixed(shutdownMs.max, 0)} ms`);
  } else {
    say(`  ERROR: ${result.message}`);
  }
  say();
  return result;
}

/** The median of the starts: one slow start on a shared machine is noise, not the server. */
export function startupTarget(startup: Step<StartupResult>): TargetResult {
  if (startup.status !== 'done') return unmeasured(NAME, `< ${STARTUP_TARGET_MS} ms`, startup);
  const { median, max } = startup.result.summaryMs;
  return {
    name: NAME,
    target: `< ${STARTUP_TARGET_MS} ms (median of ${SETTINGS.startupRuns})`,
    measured: `median ${fixed(median, 0)} ms (max ${fixed(max, 0)} ms)`,
    status: median < STARTUP_TARGET_MS ? 'PASS' : 'FAIL',
  };
}
