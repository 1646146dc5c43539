/** Runs the throughput scenarios on one bench server: checks, loads, judgements, the table and their targets. */
import type { FloodReport } from './flood.js';
import { runLoad, type LoadResult } from './load.js';
import { errorMessage, say, step } from './output.js';
import { probe, stopChild, type RequestSpec } from './processes.js';
import { argon2BoundPerSecond, type ReadyLine } from './protocol.js';
import type { PostVerification, ScenarioResult, Status, Step, TargetResult } from './results.js';
import { percentOf, unmeasured, type Scenario } from './scenario.js';
import { SCENARIO_FILTER, SETTINGS } from './settings.js';
import { sampleRss, startBenchServer } from './bench-server.js';
import { fixed, formatTable, thousands } from './table.js';

export interface ThroughputOutcome<T> {
  throughput: Step<ScenarioResult[]>;
  comments: ReadyLine['comments'] | undefined;
  activity: ReadyLine['activity'] | undefined;
  /** What `afterLoad` measured (the browser steps). */
  after: T;
  /** Peak resident memory of the server process over the scenarios, in MiB. */
  serverPeakRssMiB: number | undefined;
}

interface LoadEntry {
  scenario: Scenario;
  path: string;
  load: LoadResult;
  verification: PostVerification | undefined;
  flood: FloodReport | undefined;
}

/** The scenarios BENCH_SCENARIOS selects, with the plain baseline and any baseline they name. */
function selectedScenarios(scenarios: Scenario[]): Scenario[] {
  const filter = SCENARIO_FILTER;
  if (filter === undefined) return scenarios;
  const chosen = scenarios.filter((scenario) => filter.test(scenario.name));
  const baselines = new Set(chosen.map((scenario) => scenario.baseline).filter((name) => name !== undefined));
  return scenarios.filter((scenario, index) => index === 0 || chosen.includes(scenario) || baselines.has(scenario.name));
}

function describeServer(ready: ReadyLine): void {
  const seconds = (ms: number) => `${fixed(ms / 1000, 1)} s`;
  const { comments, argon2 } = ready;
  const { phasesMs, typical, largest, busiest, contentLength } = comments;
  const share = (entry: ReadyLine['comments']['typical']) => `${entry.componentId} ${thousands(entry.comments)} comments / ${thousands(entry.votes)} votes`;
  say(`  database: ${ready.dialect}; logging: ${ready.logging}`);
  say(
    `  argon2id (the app's hashPin/verifyPin, timed in the server before the load): hash ${fixed(argon2.hashMs, 1)} ms, ` +
      `verify ${fixed(argon2.verifyMs, 1)} ms; ${argon2.parallel} at once → login bound ${thousands(argon2BoundPerSecond(argon2))} req/s`,
  );
  say(
    `  comment data: ${thousands(comments.members)} members, ${thousands(comments.comments)} comments, ${thousands(comments.votes)} votes over ${comments.components} components, ` +
      `generated in ${seconds(comments.generationMs)} (members ${seconds(phasesMs.members)}, clear ${seconds(phasesMs.clear)}, comments ${seconds(phasesMs.comments)}, ` +
      `votes ${seconds(phasesMs.votes)}${phasesMs.analyze > 0 ? `, analyze ${seconds(phasesMs.analyze)}` : ''})` +
      (comments.cleared > 0 ? `; ${thousands(comments.cleared)} comments of an earlier run removed first` : ''),
  );
  if (ready.activity !== null) {
    const { activity } = ready;
    const types = Object.entries(activity.byType)
      .map(([type, count]) => `${type} ${thousands(count)}`)
      .join(', ');
    say(
      `  activity data: ${thousands(activity.logRows)} log rows (${types}) over ${activity.members} members and ${activity.days} days, ${thousands(activity.timeRows)} active-time rows, ` +
        `generated in ${seconds(activity.generationMs)} (clear ${seconds(activity.phasesMs.clear)}, log ${seconds(activity.phasesMs.log)}, time ${seconds(activity.phasesMs.time)}, ` +
        `members ${seconds(activity.phasesMs.members)}, commit ${seconds(activity.phasesMs.commit)}${activity.phasesMs.analyze > 0 ? `, analyze ${seconds(activity.phasesMs.analyze)}` : ''})` +
        (activity.cleared > 0 ? `; ${thousands(activity.cleared)} log rows of an earlier run removed first` : '') +
        `; busiest member ${activity.busiestMember.name} (${thousands(activity.busiestMember.logRows)} rows on ${activity.busiestMember.activeDays} days)`,
    );
  }
  say(
    `  typical ${share(typical)}; largest ${share(largest)}; busiest ${share(busiest)}; texts ${contentLength.min}–${contentLength.max} characters (mean ${contentLength.mean}); ` +
      `POST into ${comments.postComponentId}`,
  );
}

async function runScenario(scenario: Scenario, ready: ReadyLine, serverPid: number | undefined): Promise<LoadEntry> {
  const port = scenario.server === 'baseline' ? ready.baselinePort : ready.appPort;
  const pathname = typeof scenario.path === 'string' ? scenario.path : scenario.path(ready);
  const request: RequestSpec = { method: scenario.method, ...(await scenario.prepare?.(ready)) };
  const response = await probe(port, pathname, 5000, request);
  const problem = response === undefined ? 'no response' : scenario.expect(response, ready);
  if (problem !== undefined) throw new Error(`${scenario.name}: unexpected answer before the load (${problem})`);
  const verifier = scenario.verifier?.(ready);
  await verifier?.before();
  process.stdout.write(`  ${scenario.name} … `);
  const flooding = await scenario.flood?.(ready);
  const load = await runLoad({
    url: `http://127.0.0.1:${port}${pathname}`,
    request,
    connections: scenario.connections,
    durationSeconds: scenario.durationSeconds,
    warmUpSeconds: SETTINGS.warmUpSeconds,
    serverPid,
    ...verifier?.loadOptions,
  });
  const verification = await verifier?.after(load);
  const flood = await flooding?.stop();
  say(`${thousands(load.requestsPerSecond)} req/s`);
  return { scenario, path: pathname, load, verification, flood };
}

function judgeScenarios(loads: LoadEntry[], ready: ReadyLine): ScenarioResult[] {
  const firstBaseline = loads.find((entry) => entry.scenario.server === 'baseline');
  return loads.map(({ scenario, path: pathname, load, verification, flood }) => {
    const baseline = scenario.baseline === undefined ? firstBaseline : loads.find((entry) => entry.scenario.name === scenario.baseline);
    const ratio = load.requestsPerSecond / (baseline?.load.requestsPerSecond ?? Number.NaN);
    const judgement = scenario.judge(load, { ratio, ready, verification, flood });
    // A run with failed requests measures the failure, not the route: it never passes.
    const failures =
      load.errors > 0 || load.non2xx > 0 || load.timeouts > 0
        ? [`${load.errors} errors, ${load.timeouts} timeouts, ${load.non2xx} non-2xx (${JSON.stringify(load.statusCodes)})`]
        : [];
    const problems = [...failures, ...judgement.problems];
    const status: Status = problems.length > 0 ? 'FAIL' : judgement.gated ? 'PASS' : 'INFO';
    return {
      name: scenario.name,
      method: scenario.method,
      path: pathname,
      server: scenario.server,
      load,
      ratioToBaseline: ratio,
      ...(baseline === undefined || scenario.server === 'baseline' ? {} : { baselineName: baseline.scenario.name }),
      target: judgement.target,
      status,
      notes: [...problems, ...judgement.notes],
      ...(judgement.measured === undefined ? {} : { measured: judgement.measured }),
      ...(judgement.argon2 === undefined ? {} : { argon2: judgement.argon2 }),
      ...(verification === undefined ? {} : { verification }),
    };
  });
}

function throughputTable(results: ScenarioResult[]): string {
  const plainBaseline = results.find((result) => result.server === 'baseline')?.name;
  const otherBaselines = new Set(results.map((result) => result.baselineName).filter((name) => name !== undefined && name !== plainBaseline));
  const table = formatTable(
    ['scenario', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'vs baseline', 'CPU µs/req', 'target', 'result'],
    results.map((result) => [
      result.name,
      String(result.load.connections),
      thousands(result.load.requestsPerSecond),
      fixed(result.load.latencyMs.p50, 2),
      fixed(result.load.latencyMs.p99, 2),
      // A share of the baseline means something only at the baseline's concurrency.
      result.load.connections === SETTINGS.connections ? `${percentOf(result.ratioToBaseline)}${otherBaselines.has(result.baselineName) ? ' ¹' : ''}` : '—',
      result.load.serverCpuMicrosPerRequest === undefined ? '—' : thousands(result.load.serverCpuMicrosPerRequest),
      result.target,
      result.status === 'INFO' ? 'ok' : result.status,
    ]),
    ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left', 'left'],
  );
  const footnotes = [...otherBaselines].map((name) => `  ¹ of ${name}, not of ${plainBaseline ?? 'the plain baseline'}`);
  const notes = results.flatMap((result) => result.notes.map((note) => `  ${result.name}: ${note}`));
  return [table, ...footnotes, ...notes].join('\n');
}

/**
 * Starts the bench server, runs the scenarios, then `afterLoad` (the browser steps) on the same
 * server once the load has stopped, and stops it. `noServer` stands for `afterLoad`'s result when
 * the server did not start.
 */
export async function runThroughput<T>(
  all: Scenario[],
  clientDir: string | undefined,
  databaseUrl: string | undefined,
  afterLoad: (ready: ReadyLine) => Promise<T>,
  noServer: (message: string) => T,
): Promise<ThroughputOutcome<T>> {
  const scenarios = selectedScenarios(all).filter((scenario) => scenario.skipReason?.(clientDir) === undefined);
  if (SCENARIO_FILTER !== undefined) say(`BENCH_SCENARIOS=${SCENARIO_FILTER.source}: ${scenarios.map((scenario) => scenario.name).join(', ')}`);
  const others = scenarios.filter((scenario) => scenario.connections !== SETTINGS.connections || scenario.durationSeconds !== SETTINGS.durationSeconds);
  say(
    `Throughput: autocannon, ${SETTINGS.connections} connections, ${SETTINGS.warmUpSeconds} s warm-up + ${SETTINGS.durationSeconds} s per scenario` +
      others.map((scenario) => ` (${scenario.name}: ${scenario.connections} connections, ${scenario.durationSeconds} s)`).join('') +
      ', app and baseline in one server process (bench/server.ts)',
  );
  for (const scenario of all) {
    const reason = scenario.skipReason?.(clientDir);
    if (reason !== undefined) say(`  ${reason}: the ${scenario.name} scenario is skipped`);
  }

  let server;
  try {
    server = await startBenchServer(clientDir, databaseUrl, { activityData: scenarios.some((scenario) => scenario.needsActivityData === true) });
  } catch (error) {
    const message = errorMessage(error);
    say(`  ERROR: ${message}`);
    say();
    return { throughput: { status: 'error', message }, comments: undefined, activity: undefined, after: noServer(`no bench server: ${message}`), serverPeakRssMiB: undefined };
  }
  const { ready, child } = server;
  describeServer(ready);
  const memory = sampleRss(child.process.pid);
  /** The scenario whose run saw the highest resident memory, and that peak. */
  let highest: { name: string; mib: number } | undefined;
  /** Each scenario's peak, in order: where the memory grows, not only where it peaked. */
  const laps: string[] = [];
  const result = await step(async () => {
    const loads: LoadEntry[] = [];
    memory.lap();
    for (const scenario of scenarios) {
      loads.push(await runScenario(scenario, ready, child.process.pid));
      const mib = memory.lap();
      if (mib !== undefined) laps.push(`${scenario.name} ${fixed(mib, 0)}`);
      if (mib !== undefined && (highest === undefined || mib > highest.mib)) highest = { name: scenario.name, mib };
    }
    return judgeScenarios(loads, ready);
  });
  if (result.status === 'done') {
    say();
    say(throughputTable(result.result));
  } else {
    say(`  ERROR: ${result.message}`);
  }
  say();
  const serverPeakRssMiB = memory.stop();
  if (serverPeakRssMiB !== undefined) {
    const during = highest === undefined ? '' : `, highest during ${highest.name} (${fixed(highest.mib, 0)} MiB)`;
    say(`  server memory: peak resident ${fixed(serverPeakRssMiB, 0)} MiB over the scenarios (sampled every 100 ms)${during}`);
    say(`  peak resident MiB by scenario, in order: ${laps.join(', ')}`);
  }
  const after = await afterLoad(ready);
  const stopped = await stopChild(child, 5000);
  if (!stopped.graceful) say('  warning: the bench server ignored SIGTERM and was killed');
  return { throughput: result, comments: ready.comments, activity: ready.activity, after, serverPeakRssMiB };
}

/** The targets-table rows of the gated scenarios (and of those whose requests failed). */
export function throughputTargets(throughput: Step<ScenarioResult[]>, fallbackTarget: string): TargetResult[] {
  if (throughput.status !== 'done') return [unmeasured('GET /api/health throughput', fallbackTarget, throughput)];
  return throughput.result
    .filter((scenario) => scenario.status !== 'INFO')
    .map((scenario) => ({
      name: scenario.name,
      target: scenario.target,
      measured:
        scenario.measured ??
        `${thousands(scenario.load.requestsPerSecond)} req/s (${percentOf(scenario.ratioToBaseline)} of baseline), p99 ${fixed(scenario.load.latencyMs.p99, 2)} ms`,
      status: scenario.status,
    }));
}
