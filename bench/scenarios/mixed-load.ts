/**
 * The mixed load: 60% reads, 20% comments, 20% votes, signed in as many members, at 50, 200 and 500
 * connections. SQLite runs one server process; PostgreSQL two behind a round-robin TCP balancer
 * (lib/balancer.ts), whose overhead is measured against one instance reached directly. Both run on
 * bench servers of their own, which trust loopback proxies: hundreds of connections from 127.0.0.1
 * stand for a team behind a reverse proxy, so the per-address connection cap is not what is measured.
 */
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { authRoutes } from '../../src/common/api/auth.js';
import { commentRoutes } from '../../src/common/api/comments.js';
import { buildPath } from '../../src/common/api/route.js';
import { startBalancer, type Balancer } from '../lib/balancer.js';
import { sampleRss, startBenchServer, startReplicaServer, type BenchServer } from '../lib/bench-server.js';
import { COMMENT_DATA_TARGETS, generatedMemberNames } from '../lib/comment-data.js';
import { runLoad, type LoadResult } from '../lib/load.js';
import { runMix, type MixPlan, type MixResult } from '../lib/mixed.js';
import { parseJson, say, step } from '../lib/output.js';
import { cookieValue, probe, stopChild, type Child } from '../lib/processes.js';
import { SESSION_COOKIE } from '../lib/protocol.js';
import type { Status, Step, TargetResult } from '../lib/results.js';
import { loginBody, unexpected, unmeasured, withVotesPath } from '../lib/scenario.js';
import { SCENARIO_FILTER, SETTINGS } from '../lib/settings.js';
import { fixed, formatTable, thousands } from '../lib/table.js';
import { SERVER_RSS_TARGET_MIB } from './analyzer.js';

export const MIXED_LOAD_TARGETS = {
  /** p99 at the first concurrency, by engine. */
  p99Ms: { sqlite: 150, postgres: 250 },
  connections: [50, 200, 500],
  rssMiB: SERVER_RSS_TARGET_MIB,
} as const;

const NAME = 'Mixed load (60% reads, 20% comments, 20% votes)';

/**
 * Each PostgreSQL instance's pool, sized as the README tells a deployment to size it: all instances
 * together about five connections per core of the database's machine (here the same two cores).
 * More only queue on the cores as processes instead of in the pools as requests.
 */
function poolSizeFor(instances: number, databaseCores = availableParallelism()): number {
  return Math.max(2, Math.round((databaseCores * 5) / instances));
}
/** Members signed in: each round of a connection is the next one's, so no member's limits are what is measured. */
const MEMBERS = 100;
const SIGN_INS_AT_ONCE = 4;

export interface MixedRun extends MixResult {
  /** Peak resident MiB of each server process during this run. */
  rssMiB: Record<string, number | undefined>;
}

export interface MixedLoadResult {
  database: 'sqlite' | 'postgres';
  instances: number;
  members: number;
  runs: MixedRun[];
  /** PostgreSQL: the balancer's overhead, the mix at the first concurrency on one instance, directly and through a one-backend balancer. */
  balancer?: { direct: MixResult; balanced: MixResult; baselineDirect: LoadResult; baselineBalanced: LoadResult };
  /** Peak resident MiB of each server process over the whole step. */
  peakRssMiB: Record<string, number | undefined>;
}

export function mixedLoadSelected(): boolean {
  return SCENARIO_FILTER === undefined || SCENARIO_FILTER.test(NAME);
}

async function signInMembers(port: number, ready: BenchServer['ready']): Promise<string[]> {
  const names = generatedMemberNames(COMMENT_DATA_TARGETS.members).slice(0, MEMBERS);
  const cookies: string[] = [];
  for (let start = 0; start < names.length; start += SIGN_INS_AT_ONCE) {
    const batch = names.slice(start, start + SIGN_INS_AT_ONCE).map(async (name) => {
      const body = loginBody({ ...ready, signIn: { ...ready.signIn, name } });
      const response = await probe(port, authRoutes.login.path, 10_000, { method: 'POST', ...body });
      const token = response === undefined ? undefined : cookieValue(response.setCookies, SESSION_COOKIE);
      if (response?.status !== 200 || token === undefined) throw new Error(`${name} could not sign in (${response === undefined ? 'no response' : unexpected(response)})`);
      return `${SESSION_COOKIE}=${token}`;
    });
    cookies.push(...(await Promise.all(batch)));
  }
  return cookies;
}

async function planOf(port: number, ready: BenchServer['ready'], cookies: string[]): Promise<MixPlan> {
  const path = withVotesPath(ready.comments.typical.componentId);
  const response = await probe(port, path, 10_000, { method: 'GET', headers: { cookie: cookies[0] ?? '' } });
  const comments = z.array(z.object({ id: z.number().int().positive() })).safeParse(parseJson(response?.body ?? ''));
  const votable = comments.success ? comments.data.map((comment) => comment.id) : [];
  if (response?.status !== 200 || votable.length === 0) throw new Error(`the typical component's comments could not be read (${response === undefined ? 'no response' : unexpected(response)})`);
  return {
    cookies,
    withVotesPath: path,
    countsPath: commentRoutes.counts.path,
    userPath: authRoutes.user.path,
    commentPath: commentRoutes.create.path,
    commentComponentId: ready.comments.postComponentId,
    votePaths: votable.map((id) => buildPath(commentRoutes.vote.path, { id })),
    idempotencyKeys: true,
  };
}

const statusText = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, count]) => `${key}: ${thousands(count)}`)
    .join(', ');

function describeRun(run: MixResult): string {
  return `${thousands(run.requestsPerSecond)} req/s, p50 ${fixed(run.latencyMs.p50, 1)} ms, p99 ${fixed(run.latencyMs.p99, 1)} ms, max ${fixed(run.latencyMs.max, 0)} ms`;
}

export async function runMixedLoad(databaseUrl: string | undefined): Promise<Step<MixedLoadResult>> {
  const database = databaseUrl === undefined ? 'sqlite' : 'postgres';
  const instances = databaseUrl === undefined ? 1 : 2;
  say(
    `${NAME}: ${instances === 1 ? 'one server process' : 'two server processes behind a round-robin TCP balancer (bench/lib/balancer.ts)'}, ` +
      (databaseUrl === undefined ? '' : `pools of ${process.env.DATABASE_POOL_SIZE ?? poolSizeFor(instances)} connections each, `) +
      `${MEMBERS} members signed in, at ${MIXED_LOAD_TARGETS.connections.join(', ')} connections, ${SETTINGS.warmUpSeconds} s warm-up + ${SETTINGS.durationSeconds} s each`,
  );
  const children: Child[] = [];
  const balancers: Balancer[] = [];
  const result = await step(async (): Promise<MixedLoadResult> => {
    const serverOptions = { trustProxy: true, ...(databaseUrl === undefined ? {} : { poolSize: poolSizeFor(instances) }) };
    const primary = await startBenchServer(undefined, databaseUrl, serverOptions);
    children.push(primary.child);
    const pids: Record<string, number | undefined> = { app1: primary.child.process.pid };
    let port = primary.ready.appPort;
    if (databaseUrl !== undefined) {
      const replica = await startReplicaServer(primary, databaseUrl, serverOptions);
      children.push(replica.child);
      pids.app2 = replica.child.process.pid;
      const balancer = await startBalancer([primary.ready.appPort, replica.ready.appPort]);
      balancers.push(balancer);
      port = balancer.port;
    }
    const cookies = await signInMembers(port, primary.ready);
    const plan = await planOf(port, primary.ready, cookies);
    const servers = Object.entries(pids);
    const memory = servers.map(([name, pid]) => [name, sampleRss(pid)] as const);
    const cpuPids = { ...pids, ...(balancers[0] === undefined ? {} : { balancer: balancers[0].child.process.pid }) };
    const runs: MixedRun[] = [];
    for (const connections of MIXED_LOAD_TARGETS.connections) {
      memory.forEach(([, sampler]) => sampler.lap());
      process.stdout.write(`  ${connections} connections … `);
      const run = await runMix({ url: `http://127.0.0.1:${port}/`, plan, connections, durationSeconds: SETTINGS.durationSeconds, warmUpSeconds: SETTINGS.warmUpSeconds, cpuPids });
      const rssMiB = Object.fromEntries(memory.map(([name, sampler]) => [name, sampler.lap()]));
      runs.push({ ...run, rssMiB });
      say(describeRun(run));
    }
    const peakRssMiB = Object.fromEntries(memory.map(([name, sampler]) => [name, sampler.stop()]));

    let balancerCheck: MixedLoadResult['balancer'];
    if (databaseUrl !== undefined) {
      // The balancer's own cost: one instance directly, then the same through a one-backend balancer.
      const single = await startBalancer([primary.ready.appPort]);
      balancers.push(single);
      const connections = MIXED_LOAD_TARGETS.connections[0];
      const options = { plan, connections, durationSeconds: SETTINGS.durationSeconds, warmUpSeconds: SETTINGS.warmUpSeconds };
      process.stdout.write(`  balancer overhead: one instance directly … `);
      const direct = await runMix({ ...options, url: `http://127.0.0.1:${primary.ready.appPort}/` });
      process.stdout.write(`${describeRun(direct)}; through the balancer … `);
      const balanced = await runMix({ ...options, url: `http://127.0.0.1:${single.port}/` });
      say(describeRun(balanced));
      const baselineLoad = (targetPort: number, path: string) =>
        runLoad({ url: `http://127.0.0.1:${targetPort}${path}`, connections, durationSeconds: SETTINGS.infoDurationSeconds, warmUpSeconds: SETTINGS.warmUpSeconds });
      const single2 = await startBalancer([primary.ready.baselinePort]);
      balancers.push(single2);
      const baselineDirect = await baselineLoad(primary.ready.baselinePort, '/baseline');
      const baselineBalanced = await baselineLoad(single2.port, '/baseline');
      say(
        `  balancer alone on the trivial baseline route: ${thousands(baselineDirect.requestsPerSecond)} req/s directly, ` +
          `${thousands(baselineBalanced.requestsPerSecond)} req/s through it (p99 ${fixed(baselineDirect.latencyMs.p99, 2)} → ${fixed(baselineBalanced.latencyMs.p99, 2)} ms)`,
      );
      balancerCheck = { direct, balanced, baselineDirect, baselineBalanced };
    }
    return { database, instances, members: cookies.length, runs, ...(balancerCheck === undefined ? {} : { balancer: balancerCheck }), peakRssMiB };
  });
  for (const balancer of balancers) await stopChild(balancer.child, 2000);
  for (const child of children.reverse()) await stopChild(child, 5000);
  if (result.status === 'done') say(mixedTable(result.result));
  else say(`  ERROR: ${result.message}`);
  say();
  return result;
}

function mixedTable({ runs, balancer, peakRssMiB }: MixedLoadResult): string {
  const processes = Object.keys(peakRssMiB);
  const cpuNames = Object.keys(runs[0]?.cpuMicrosPerRequest ?? {});
  const table = formatTable(
    ['conns', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'answers by status', ...cpuNames.map((name) => `CPU µs/req ${name}`), ...processes.map((name) => `RSS MiB ${name}`)],
    runs.map((run) => [
      String(run.connections),
      thousands(run.requestsPerSecond),
      fixed(run.latencyMs.p50, 1),
      fixed(run.latencyMs.p99, 1),
      fixed(run.latencyMs.max, 0),
      statusText(run.statuses) + (run.errors > 0 ? `, socket errors: ${run.errors} (timeouts ${run.timeouts})` : ''),
      ...cpuNames.map((name) => (run.cpuMicrosPerRequest[name] === undefined ? '—' : thousands(run.cpuMicrosPerRequest[name] ?? 0))),
      ...processes.map((name) => (run.rssMiB[name] === undefined ? '—' : fixed(run.rssMiB[name] ?? 0, 0))),
    ]),
    ['right', 'right', 'right', 'right', 'right', 'left', ...cpuNames.map((): 'right' => 'right'), ...processes.map((): 'right' => 'right')],
  );
  const notes = runs.map(
    (run) => `  ${run.connections} connections by kind: ` + (['read', 'comment', 'vote'] as const).map((kind) => `${kind} {${statusText(run.byKind[kind])}}`).join(', '),
  );
  if (balancer !== undefined) {
    const share = (balanced: number, direct: number) => `${fixed((balanced / direct) * 100, 0)}%`;
    notes.push(
      `  balancer overhead at ${balancer.direct.connections} connections on one instance: ${describeRun(balancer.direct)} directly, ${describeRun(balancer.balanced)} through it ` +
        `(${share(balancer.balanced.requestsPerSecond, balancer.direct.requestsPerSecond)} of the direct req/s); on the trivial baseline route ` +
        `${thousands(balancer.baselineBalanced.requestsPerSecond)} req/s through it vs ${thousands(balancer.baselineDirect.requestsPerSecond)} directly`,
    );
  }
  return [table, ...notes].join('\n');
}

export function mixedLoadTargets(outcome: Step<MixedLoadResult> | undefined, database: 'sqlite' | 'postgres'): TargetResult[] {
  if (outcome === undefined) return [];
  const p99Ms = MIXED_LOAD_TARGETS.p99Ms[database];
  const [first] = MIXED_LOAD_TARGETS.connections;
  const errorGoal = '0 errors but 503 with Retry-After';
  if (outcome.status !== 'done') return [unmeasured(NAME, `${errorGoal}; p99 < ${p99Ms} ms at ${first} connections`, outcome)];
  const { runs, peakRssMiB } = outcome.result;
  const rows: TargetResult[] = runs.map((run) => {
    const gatedP99 = run.connections === first;
    const problems = [...(run.failures > 0 ? [`${run.failures} failed answers`] : []), ...(gatedP99 && !(run.latencyMs.p99 < p99Ms) ? ['p99 over'] : [])];
    const refused = run.statuses['503+retry-after'] ?? 0;
    const status: Status = problems.length > 0 ? 'FAIL' : 'PASS';
    return {
      name: `${NAME} at ${run.connections} connections`,
      target: gatedP99 ? `${errorGoal}; p99 < ${p99Ms} ms` : errorGoal,
      measured: `${describeRun(run)}; ${run.failures} failed, ${thousands(refused)} 503 with Retry-After of ${thousands(run.requestsTotal)}`,
      status,
    };
  });
  const peaks = Object.entries(peakRssMiB);
  const over = peaks.some(([, mib]) => mib === undefined || mib > MIXED_LOAD_TARGETS.rssMiB);
  rows.push({
    name: `${NAME}: server memory`,
    target: `peak resident ≤ ${MIXED_LOAD_TARGETS.rssMiB} MiB per server process`,
    measured: peaks.map(([name, mib]) => `${name} ${mib === undefined ? 'not measured' : `${fixed(mib, 0)} MiB`}`).join(', '),
    status: over ? 'FAIL' : 'PASS',
  });
  return rows;
}

