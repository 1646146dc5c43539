/**
 * `npm run bench`: runs the scenarios of bench/scenarios in order on SQLite and, when
 * BENCH_DATABASE_URL is set, then on PostgreSQL; checks the targets, prints the tables and writes
 * .bench/results.json (results-postgres.json). Exits non-zero when a target fails. See bench/README.md.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScratchDatabase, dropScratchDatabase, hasScratchDatabase } from './lib/database.js';
import { cpuBusyShare, gitState, ROOT, writeResults } from './lib/environment.js';
import { say } from './lib/output.js';
import { cleanUp } from './lib/processes.js';
import type { LighthouseResult } from './lib/lighthouse.js';
import type { MainPageResult } from './lib/main-page.js';
import type { BenchResults, Step } from './lib/results.js';
import type { Scenario } from './lib/scenario.js';
import { nonEmpty, SCENARIO_FILTER, SETTINGS, WATCHDOG_MS_PER_ENGINE } from './lib/settings.js';
import { fixed, formatTable } from './lib/table.js';
import { runThroughput, throughputTargets } from './lib/throughput.js';
import { ANALYTICS_SCENARIOS } from './scenarios/analytics.js';
import { analyzerTargets, runAnalyzer } from './scenarios/analyzer.js';
import { bundleTargets, CLIENT_DIR, runBundle } from './scenarios/bundle.js';
import { COMMENT_READ_SCENARIOS } from './scenarios/comment-reads.js';
import { COMMENT_WRITE_SCENARIO } from './scenarios/comment-writes.js';
import { COMPRESSED_READ_SCENARIOS } from './scenarios/compressed-reads.js';
import { FLOOD_SCENARIOS } from './scenarios/flood.js';
import { lighthouseTargets, runLighthouse } from './scenarios/lighthouse.js';
import { mainPageRequestsTarget, mainPageTarget, runMainPage } from './scenarios/main-page.js';
import { mixedLoadSelected, mixedLoadTargets, runMixedLoad } from './scenarios/mixed-load.js';
import { qaRunSelected, qaRunTargets, runQaBench } from './scenarios/qa-run.js';
import { exportSelected, exportTargets, runExportBench } from './scenarios/export.js';
import { READ_SCENARIOS, READ_TARGETS } from './scenarios/reads.js';
import { SIGN_IN_SCENARIO } from './scenarios/sign-in.js';
import { DIST_MAIN, runStartup, startupTarget } from './scenarios/startup.js';

/** The throughput scenarios, in run order. */
const SCENARIOS: Scenario[] = [
  READ_SCENARIOS.baseline,
  READ_SCENARIOS.health,
  READ_SCENARIOS.spaShell,
  SIGN_IN_SCENARIO,
  READ_SCENARIOS.user,
  ...COMMENT_READ_SCENARIOS,
  ...COMPRESSED_READ_SCENARIOS,
  ...FLOOD_SCENARIOS,
  COMMENT_WRITE_SCENARIO,
  ...ANALYTICS_SCENARIOS,
];

/** The steps run in Chromium on the bench server once the loads are over. */
interface BrowserSteps {
  mainPage: Step<MainPageResult>;
  lighthouse: Step<LighthouseResult>;
}

type Engine = { database: 'sqlite'; url: undefined } | { database: 'postgres'; url: string };

const givenDatabaseUrl = nonEmpty(process.env.BENCH_DATABASE_URL);
const freshDatabase = nonEmpty(process.env.BENCH_DATABASE_FRESH) === '1';
/** SQLite, then PostgreSQL when BENCH_DATABASE_URL is set; BENCH_ENGINES=postgres (or sqlite) keeps one. */
const ENGINES: Engine[] = [
  { database: 'sqlite' as const, url: undefined },
  ...(givenDatabaseUrl === undefined ? [] : [{ database: 'postgres' as const, url: givenDatabaseUrl }]),
].filter((engine) => nonEmpty(process.env.BENCH_ENGINES)?.split(',').includes(engine.database) ?? true);

/**
 * BENCH_SCENARIOS may name only steps with servers of their own (the self-test, the mixed load): the
 * throughput server, and the browser steps on it, then do not run at all.
 */
const throughputSelected = SCENARIO_FILTER === undefined || SCENARIOS.some((scenario) => SCENARIO_FILTER?.test(scenario.name) === true);

function skippedThroughput(): Awaited<ReturnType<typeof runThroughput<BrowserSteps>>> {
  const message = `not selected by BENCH_SCENARIOS=${SCENARIO_FILTER?.source ?? ''}`;
  return {
    throughput: { status: 'skipped', message },
    comments: undefined,
    activity: undefined,
    after: { mainPage: { status: 'skipped', message }, lighthouse: { status: 'skipped', message } },
    serverPeakRssMiB: undefined,
  };
}

/** Set once the run is ending (done, failed, interrupted or overrun): the first way out wins. */
let exiting = false;

async function runEngine(engine: Engine, clientDir: string | undefined): Promise<boolean> {
  const startedAt = new Date();
  let databaseUrl = engine.url;
  if (databaseUrl !== undefined && freshDatabase) {
    const scratch = await createScratchDatabase(databaseUrl);
    databaseUrl = scratch.url;
    say(`PostgreSQL: created the database ${scratch.name} for this run (BENCH_DATABASE_FRESH=1); it is dropped at the end`);
  }
  const git = gitState();
  const cpus = os.cpus();
  say(
    `bench: node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, commit ${git.commit}${git.dirty ? ' (uncommitted changes)' : ''}, ` +
      `database ${databaseUrl === undefined ? 'SQLite' : 'PostgreSQL (BENCH_DATABASE_URL)'}`,
  );
  // The server and autocannon each need a core: anything else running makes the figures noise.
  const busyBefore = await cpuBusyShare(1000);
  const loadBefore = os.loadavg()[0] ?? 0;
  const busy = `${fixed(busyBefore * 100, 0)}% of the CPU in use`;
  if (busyBefore > 0.2) say(`WARNING: the machine is busy before the run (${busy}, load average ${fixed(loadBefore, 2)}); the figures below are not comparable with a run on an idle machine.`);
  say();

  const startup = await runStartup(databaseUrl);
  const analyzer = await runAnalyzer();
  const {
    throughput,
    comments,
    activity,
    after: { mainPage, lighthouse },
    serverPeakRssMiB,
  } = throughputSelected
    ? await runThroughput<BrowserSteps>(
        SCENARIOS,
        clientDir,
        databaseUrl,
        async (ready) => ({ mainPage: await runMainPage(clientDir, ready), lighthouse: await runLighthouse(clientDir, ready) }),
        (message) => ({ mainPage: { status: 'error', message }, lighthouse: { status: 'error', message } }),
      )
    : skippedThroughput();
  // The self-test needs an admin, so it runs on a bench server of its own (scenarios/qa-run.ts).
  const qaRun = qaRunSelected() ? await runQaBench(databaseUrl) : undefined;
  // Its servers trust loopback proxies and PostgreSQL runs two of them: bench servers of its own too.
  const mixedLoad = mixedLoadSelected() ? await runMixedLoad(databaseUrl) : undefined;
  // Exports read the whole generated review: a bench server of its own, after the loads.
  const exports = exportSelected() ? await runExportBench(databaseUrl) : undefined;
  const bundle = runBundle();

  const healthTarget = `≥ ${READ_TARGETS.healthRatio * 100}% of baseline, p99 < ${READ_TARGETS.healthP99Ms} ms`;
  const targets = [
    ...analyzerTargets(analyzer, throughputSelected ? serverPeakRssMiB : 'skipped'),
    startupTarget(startup),
    ...(throughputSelected ? throughputTargets(throughput, healthTarget) : []),
    ...(qaRun === undefined ? [] : qaRunTargets(qaRun, engine.database)),
    ...mixedLoadTargets(mixedLoad, engine.database),
    ...(exports === undefined ? [] : exportTargets(exports)),
    ...bundleTargets(bundle),
    mainPageTarget(mainPage),
    mainPageRequestsTarget(mainPage),
    ...lighthouseTargets(lighthouse),
  ];
  say('Targets');
  say(formatTable(['target', 'goal', 'measured', 'result'], targets.map((t) => [t.name, t.target, t.measured.split('\n')[0] ?? '', t.status]), ['left', 'left', 'left', 'left']));
  const passed = targets.every((target) => target.status !== 'FAIL');

  const results: BenchResults = {
    schemaVersion: 1,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    environment: {
      node: process.version,
      platform: `${process.platform} ${os.release()} ${process.arch}`,
      cpus: cpus[0]?.model.trim() ?? 'unknown',
      cpuCount: cpus.length,
      totalMemoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
      commit: git.commit,
      dirty: git.dirty,
      database: engine.database,
      ...(hasScratchDatabase() ? { freshDatabase: true } : {}),
      cpuBusyBeforeRun: Math.round(busyBefore * 100) / 100,
      loadAverageBeforeRun: Math.round(loadBefore * 100) / 100,
    },
    settings: {
      ...SETTINGS,
      ...(SCENARIO_FILTER === undefined ? {} : { scenarioFilter: SCENARIO_FILTER.source }),
      logging: 'app and baseline: level info, async pino destination /dev/null; request logs off for /api/health and /baseline',
    },
    startup,
    throughput,
    commentData: comments ?? null,
    activityData: activity ?? null,
    mainPage,
    lighthouse,
    analyzer,
    serverPeakRssMiB: serverPeakRssMiB ?? null,
    bundle: bundle.bundle,
    mainPageBundle: bundle.pageBundle,
    analyticsPageBundle: bundle.analyticsPageBundle,
    ...(mixedLoad === undefined ? {} : { mixedLoad }),
    targets,
    passed,
  };
  await dropScratchDatabase();
  // An interrupted run writes no results.
  if (exiting) return false;
  const file = writeResults(results);
  say();
  say(`${passed ? 'All targets met' : 'Some targets FAILED'} (${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s). Results: ${path.relative(ROOT, file)}`);
  if (busyBefore > 0.2) say(`Measured on a busy machine (${fixed(busyBefore * 100, 0)}% CPU in use before the run): rerun on an idle one before trusting req/s and p99.`);
  return passed;
}

async function main(): Promise<number> {
  if (!existsSync(DIST_MAIN) || !existsSync(path.join(ROOT, 'dist', 'server', 'app.js'))) {
    say(`${path.relative(ROOT, DIST_MAIN)} is missing: run \`npm run bench\` (which builds first) or \`npm run build\`.`);
    return 2;
  }
  if (ENGINES.length === 0) {
    say('BENCH_ENGINES selects no engine (sqlite, or postgres with BENCH_DATABASE_URL set)');
    return 2;
  }
  const clientDir = existsSync(path.join(CLIENT_DIR, 'index.html')) ? CLIENT_DIR : undefined;
  let passed = true;
  for (const [index, engine] of ENGINES.entries()) {
    if (index > 0) say();
    passed = (await runEngine(engine, clientDir)) && passed;
    if (exiting) return 130;
  }
  return passed ? 0 : 1;
}

/** Kills the children, removes the temporary directories, drops a scratch database (bounded), exits. */
function finish(code: number): void {
  if (exiting) return;
  exiting = true;
  cleanUp();
  if (!hasScratchDatabase()) process.exit(code);
  const dropped = Promise.race([dropScratchDatabase(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  void dropped.then(() => process.exit(code));
}

const watchdogMs = WATCHDOG_MS_PER_ENGINE * Math.max(1, ENGINES.length);
setTimeout(() => {
  process.stderr.write(`bench: still running after ${watchdogMs / 1000} s; killing child processes and giving up\n`);
  finish(3);
}, watchdogMs).unref();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    process.stderr.write(`\nbench: ${signal}, stopping child processes\n`);
    finish(130);
  });
}

main().then(finish, (error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  finish(1);
});
