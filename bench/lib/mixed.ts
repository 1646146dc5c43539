/**
 * The mixed load: every autocannon connection plays a reviewing member's page over and over, ten
 * requests a round (6 reads, 2 comments, 2 votes), each round as the next of many signed-in members.
 * Answers are counted by kind and status; a 503 counts as refused (not failed) only with Retry-After.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { IDEMPOTENCY_KEY_HEADER } from '../../src/common/api/idempotency.js';
import { processCpuMs } from './processes.js';
import { percentile, round } from './stats.js';

export type MixKind = 'read' | 'comment' | 'vote';

export interface MixPlan {
  /** Session cookies (`name=value`), one per member; each round of a connection takes the next. */
  cookies: readonly string[];
  withVotesPath: string;
  countsPath: string;
  userPath: string;
  commentPath: string;
  /** The component the comments go to. */
  commentComponentId: string;
  /** `/api/comments/<id>/vote` of a comment the members vote on. */
  votePaths: readonly string[];
  /** Send a fresh Idempotency-Key with every write, as the real client does. */
  idempotencyKeys: boolean;
}

export interface MixOptions {
  url: string;
  plan: MixPlan;
  connections: number;
  durationSeconds: number;
  warmUpSeconds: number;
  /** Server processes whose CPU time per answered request is measured (the balancer's too). */
  cpuPids?: Readonly<Record<string, number | undefined>>;
}

export interface MixResult {
  connections: number;
  durationSeconds: number;
  requestsPerSecond: number;
  requestsTotal: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** Answers by kind, then by status ('503+retry-after' apart from a bare '503'). */
  byKind: Record<MixKind, Record<string, number>>;
  /** Answers by status over all kinds, same keys. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Anything but a 2xx or a 503 with Retry-After, plus socket errors (autocannon counts timeouts among them): what fails the target. */
  failures: number;
  /** CPU µs per answered request of each process in cpuPids. */
  cpuMicrosPerRequest: Record<string, number | undefined>;
  warmUp: { requestsTotal: number; failures: number };
}

/** The round: 6 reads (the user, counts twice, the component's comments three times), 2 comments, 2 votes. */
const ROUND: readonly MixKind[] = ['read', 'read', 'read', 'vote', 'read', 'comment', 'read', 'vote', 'read', 'comment'];
const READS = ['user', 'counts', 'withVotes', 'withVotes', 'counts', 'withVotes'] as const;

const COMMENT_TEXT =
  'Mixed load: a reviewer adds a comment while others read and vote. The text has the length of an ordinary review comment, ' +
  'long enough to be stored and sent like one.';

function statusKey(status: number, headers: autocannon.Request['headers']): string {
  if (status !== 503) return String(status);
  const retryAfter = Object.entries(headers ?? {}).some(([name, value]) => name.toLowerCase() === 'retry-after' && value !== undefined && value !== '');
  return retryAfter ? '503+retry-after' : '503';
}

export function isAcceptedStatus(key: string): boolean {
  return /^2\d\d$/.test(key) || key === '503+retry-after';
}

function requestsOf(plan: MixPlan, counts: Record<MixKind, Record<string, number>>): autocannon.Request[] {
  let nextMember = 0;
  let nextVote = 0;
  const cookieOf = new WeakMap<object, string>();
  const record = (kind: MixKind) => (status: number, _body: string, _context: object, headers: autocannon.Request['headers']) => {
    const key = statusKey(status, headers);
    counts[kind][key] = (counts[kind][key] ?? 0) + 1;
  };
  let readIndex = 0;
  return ROUND.map((kind, index) => {
    const setupRequest = (request: autocannon.Request, context: object): autocannon.Request => {
      // autocannon gives each round a fresh context: the round's first request picks its member.
      let cookie = cookieOf.get(context);
      if (cookie === undefined || index === 0) {
        cookie = plan.cookies[nextMember % plan.cookies.length] ?? '';
        nextMember += 1;
        cookieOf.set(context, cookie);
      }
      const headers: Record<string, string> = kind === 'read' ? { cookie } : { 'content-type': 'application/json', cookie };
      if (kind !== 'read' && plan.idempotencyKeys) headers[IDEMPOTENCY_KEY_HEADER] = randomUUID();
      if (kind === 'vote') {
        const path = plan.votePaths[nextVote % plan.votePaths.length] ?? '';
        const voteType = nextVote % 3 === 0 ? 'thumbs_down' : 'thumbs_up';
        nextVote += 1;
        return { ...request, path, headers, body: JSON.stringify({ voteType }) };
      }
      return { ...request, headers };
    };
    if (kind === 'comment') {
      return {
        method: 'POST',
        path: plan.commentPath,
        body: JSON.stringify({ componentId: plan.commentComponentId, content: COMMENT_TEXT }),
        setupRequest,
        onResponse: record(kind),
      };
    }
    if (kind === 'vote') return { method: 'POST', path: plan.votePaths[0] ?? '', setupRequest, onResponse: record(kind) };
    const read = READS[readIndex % READS.length] ?? 'withVotes';
    readIndex += 1;
    const path = read === 'user' ? plan.userPath : read === 'counts' ? plan.countsPath : plan.withVotesPath;
    return { method: 'GET', path, setupRequest, onResponse: record(kind) };
  });
}

const emptyCounts = (): Record<MixKind, Record<string, number>> => ({ read: {}, comment: {}, vote: {} });

function fire(options: MixOptions, durationSeconds: number, latencies: number[] | undefined) {
  const counts = emptyCounts();
  return new Promise<{ result: autocannon.Result; counts: Record<MixKind, Record<string, number>> }>((resolve, reject) => {
    const instance = autocannon(
      { url: options.url, connections: options.connections, duration: durationSeconds, pipelining: 1, timeout: 10, requests: requestsOf(options.plan, counts) },
      (error: unknown, result) => {
        clearTimeout(guard);
        if (error instanceof Error) reject(error);
        else if (error !== null && error !== undefined) reject(new Error(`autocannon failed: ${JSON.stringify(error)}`));
        else resolve({ result, counts });
      },
    );
    instance.on('response', (_client, _statusCode, _bytes, responseTimeMs) => {
      latencies?.push(responseTimeMs);
    });
    const guard = setTimeout(() => {
      instance.stop();
    }, (durationSeconds + 15) * 1000);
  });
}

function merge(counts: Record<MixKind, Record<string, number>>): Record<string, number> {
  const all: Record<string, number> = {};
  for (const byStatus of Object.values(counts)) for (const [key, count] of Object.entries(byStatus)) all[key] = (all[key] ?? 0) + count;
  return all;
}

const failuresIn = (statuses: Record<string, number>) => Object.entries(statuses).reduce((sum, [key, count]) => sum + (isAcceptedStatus(key) ? 0 : count), 0);

/** An unrecorded warm-up, then the measured run. */
export async function runMix(options: MixOptions): Promise<MixResult> {
  const warm = await fire(options, options.warmUpSeconds, undefined);
  const pids = Object.entries(options.cpuPids ?? {});
  const before = pids.map(([, pid]) => processCpuMs(pid));
  const latencies: number[] = [];
  const { result, counts } = await fire(options, options.durationSeconds, latencies);
  const after = pids.map(([, pid]) => processCpuMs(pid));
  latencies.sort((a, b) => a - b);
  const statuses = merge(counts);
  const cpuMicrosPerRequest: Record<string, number | undefined> = {};
  pids.forEach(([name], index) => {
    const start = before[index];
    const end = after[index];
    cpuMicrosPerRequest[name] = start === undefined || end === undefined || latencies.length === 0 ? undefined : round(((end - start) * 1000) / latencies.length, 0);
  });
  const warmStatuses = merge(warm.counts);
  return {
    connections: options.connections,
    durationSeconds: result.duration,
    requestsPerSecond: round(result.requests.average, 0),
    requestsTotal: result.requests.total,
    latencyMs: {
      p50: round(percentile(latencies, 50), 3),
      p90: round(percentile(latencies, 90), 3),
      p99: round(percentile(latencies, 99), 3),
      max: round(latencies[latencies.length - 1] ?? Number.NaN, 3),
      mean: round(latencies.reduce((sum, value) => sum + value, 0) / Math.max(1, latencies.length), 3),
    },
    byKind: counts,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    failures: failuresIn(statuses) + result.errors,
    cpuMicrosPerRequest,
    warmUp: { requestsTotal: warm.result.requests.total, failures: failuresIn(warmStatuses) + warm.result.errors },
  };
}
