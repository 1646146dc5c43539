/** The run's settings, from the defaults and the BENCH_* variables (see bench/README.md). */

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function positiveNumberFromEnv(name: string, fallback: number): number {
  const raw = nonEmpty(process.env[name]);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    process.stderr.write(`${name} must be a positive number of seconds (got "${raw}")\n`);
    process.exit(2);
  }
  return value;
}

function filterFromEnv(name: string): RegExp | undefined {
  const raw = nonEmpty(process.env[name]);
  if (raw === undefined) return undefined;
  try {
    return new RegExp(raw, 'i');
  } catch {
    process.stderr.write(`${name} must be a regular expression (got "${raw}")\n`);
    process.exit(2);
  }
}

const DURATION_SECONDS = positiveNumberFromEnv('BENCH_DURATION', 8);

/** BENCH_SCENARIOS=<regex>: only the throughput scenarios whose name matches (and their baselines). */
export const SCENARIO_FILTER = filterFromEnv('BENCH_SCENARIOS');

/** BENCH_LIGHTHOUSE_PAGES=<regex>: only the Lighthouse audits whose page name or preset matches ('main page mobile'). */
export const LIGHTHOUSE_FILTER = filterFromEnv('BENCH_LIGHTHOUSE_PAGES');

export const SETTINGS = {
  connections: 50,
  durationSeconds: DURATION_SECONDS,
  warmUpSeconds: 1,
  startupRuns: 5,
  // Not more than 5: a sixth sign-in of the same name in flight is refused by the lockout.
  loginConnections: 5,
  loginDurationSeconds: Math.min(DURATION_SECONDS, 5),
  /** The largest component and the POST. */
  commentConnections: 20,
  /** The analytics calls. */
  analyticsConnections: 20,
  /** The scenarios without a target (busiest component, counts) run shorter. */
  infoDurationSeconds: Math.min(DURATION_SECONDS, 5),
  mainPageRuns: 5,
  /** Lighthouse runs per page and preset with a performance target; the median is reported (BENCH_LIGHTHOUSE_RUNS). */
  lighthouseRuns: Math.round(positiveNumberFromEnv('BENCH_LIGHTHOUSE_RUNS', 3)),
  /** A folder for every Lighthouse run's full report (BENCH_LIGHTHOUSE_REPORTS), none by default. */
  /** BENCH_LIGHTHOUSE_PROFILE=1: JavaScript samples in each kept trace; the scores of such a run are not comparable. */
  lighthouseProfile: process.env.BENCH_LIGHTHOUSE_PROFILE === '1',
  lighthouseReportDir: process.env.BENCH_LIGHTHOUSE_REPORTS === undefined || process.env.BENCH_LIGHTHOUSE_REPORTS === '' ? undefined : process.env.BENCH_LIGHTHOUSE_REPORTS,
};

/** The mixed load's own servers: data generation, a second instance, a hundred sign-ins. */
const MIXED_LOAD_STARTUP_MS = 120_000;

/** Bound on one Lighthouse run (one page, one preset); a run takes 10–20 s on 2 cores. */
const LIGHTHOUSE_MS_PER_RUN = 30_000;

/**
 * Lighthouse runs of one engine, as scenarios/lighthouse.ts plans them: six page-preset pairs with
 * a performance target (four pages mobile, two of them desktop too), each SETTINGS.lighthouseRuns
 * times, and four pages audited for accessibility alone, once each.
 */
const LIGHTHOUSE_RUNS_PER_ENGINE = 6 * SETTINGS.lighthouseRuns + 4;

/**
 * Bounds one engine's run (start-ups, data generation with the activity data's minute at most,
 * browser, twenty-eight load runs (and the mixed load's seven) and the self-test runs going on beside some, and the Lighthouse
 * runs); a hung step is killed.
 */
export const WATCHDOG_MS_PER_ENGINE = 300_000 + MIXED_LOAD_STARTUP_MS + SETTINGS.durationSeconds * 42 * 1000 + LIGHTHOUSE_MS_PER_RUN * LIGHTHOUSE_RUNS_PER_ENGINE;
