/**
 * The team-analytics calls on the generated data set (200 members, 50,000 comments, 250,000 votes,
 * 1,000,000 activity rows): each loaded at 20 connections, signed in. The cached calls answer from
 * memory under load, so before each load the cold cost is measured too: the first request, then
 * the first request after each of a few invalidations, with the SQL statements the server ran
 * (lib/sql-trace.ts): how many, and the slowest.
 */
import { analyticsRoutes } from '../../src/common/api/activity.js';
import type { LoadResult } from '../lib/load.js';
import { parseJson } from '../lib/output.js';
import { probe, type ProbeResponse } from '../lib/processes.js';
import { sqlTraceSchema, type ReadyLine } from '../lib/protocol.js';
import { SETTINGS } from '../lib/settings.js';
import { get, p99Problems, signedInCookie, unexpected, type Judgement, type Scenario } from '../lib/scenario.js';
import type { TracedStatement } from '../lib/sql-trace.js';
import { fixed, thousands } from '../lib/table.js';
import { summarize } from '../lib/stats.js';

export const ANALYTICS_TARGETS = {
  p99Ms: 100,
  /** Not a target: a cold call over this is reported as a finding. */
  coldMs: 100,
} as const;

/** Invalidations per cached call (each followed by one timed request), after the first request. */
const COLD_ROUNDS = 3;

let pageViews = 0;
const nextPageView = () => {
  pageViews += 1;
  return `${Date.now()}-${pageViews}`;
};

/** What drops a call's cached answer: an activity entry (POST /api/activity/log) or a comment (POST /api/comments). */
type Invalidation = 'activity' | 'comment' | 'none';

interface AnalyticsCall {
  name: string;
  path: (ready: ReadyLine) => string;
  invalidation: Invalidation;
  /**
   * The call's statements as read in src/server/modules/activity/repo.ts, not counting the session
   * guard's lookup (one more on every request, and a last-seen update at most once a minute).
   */
  queries: number;
  queriesRead: string;
  expect: (response: ProbeResponse) => string | undefined;
}

const jsonOf = (response: ProbeResponse, shape: 'array' | 'object'): string | undefined => {
  if (response.status !== 200) return unexpected(response);
  const body = parseJson(response.body);
  const ok = shape === 'array' ? Array.isArray(body) && body.length > 0 : typeof body === 'object' && body !== null && !Array.isArray(body);
  return ok ? undefined : `expected a JSON ${shape}, got ${response.body.slice(0, 80)}`;
};

const busiestMember = (ready: ReadyLine) => {
  if (ready.activity === null) throw new Error('the bench server generated no activity data');
  return ready.activity.busiestMember;
};

const CALLS: AnalyticsCall[] = [
  {
    name: 'users',
    path: () => analyticsRoutes.users.path,
    invalidation: 'activity',
    queries: 5,
    queriesRead: 'members and active time by member, read fresh; comments, comment votes and suggestion votes by member (three), kept until a review change',
    expect: (response) => jsonOf(response, 'array'),
  },
  {
    name: 'sessions/active',
    path: () => analyticsRoutes.activeSessions.path,
    invalidation: 'activity',
    queries: 1,
    queriesRead: 'sessions seen in the last 5 minutes joined to their members (kept a second at most)',
    // The bench member's own session is active.
    expect: (response) => jsonOf(response, 'array'),
  },
  {
    name: 'user/:memberName',
    path: (ready) => `/api/analytics/user/${encodeURIComponent(busiestMember(ready).name)}`,
    invalidation: 'activity',
    queries: 9,
    queriesRead: "the member, the team's kept review counts (three when not kept), its active time, its last 50 log entries and its comments, votes and active time per day over 30 days (three)",
    expect: (response) => jsonOf(response, 'object'),
  },
  {
    name: 'daily',
    path: () => analyticsRoutes.daily.path,
    invalidation: 'activity',
    queries: 3,
    queriesRead: "the team's active time per day over 30 days, read fresh; its comments and votes per day (two), kept until a review change",
    expect: (response) => jsonOf(response, 'object'),
  },
  {
    name: 'activity',
    path: () => analyticsRoutes.activity.path,
    invalidation: 'activity',
    queries: 1,
    queriesRead: "the team's last 50 log entries joined to their members",
    expect: (response) => jsonOf(response, 'array'),
  },
  {
    name: 'coverage',
    path: () => analyticsRoutes.coverage.path,
    invalidation: 'comment',
    queries: 3,
    queriesRead: 'the active members, comments grouped by component and member, votes joined to their comments grouped the same way',
    expect: (response) => jsonOf(response, 'object'),
  },
];

interface ColdCall {
  /** The first request of the call on this server (empty cache, statements not yet prepared). */
  firstMs: number;
  /** The first request after each invalidation; for the uncached call, simply the next requests. */
  afterInvalidationMs: number[];
  /** Statements of the slowest cold request after an invalidation (the guard's included), slowest first. */
  statements: TracedStatement[];
  /** Statements of a request answered from memory (the session guard). */
  cachedStatements: number;
  /** Size of the answer. */
  bytes: number;
}

const coldResults = new WeakMap<ReadyLine, Map<string, ColdCall>>();

const scenarioName = (call: AnalyticsCall) => `GET /api/analytics/${call.name} (signed in)`;

async function traced(ready: ReadyLine, request: () => Promise<ProbeResponse | undefined>): Promise<{ ms: number; statements: TracedStatement[]; response: ProbeResponse | undefined }> {
  const tracePath = ready.activity?.sqlTracePath;
  if (tracePath === undefined) throw new Error('the bench server generated no activity data');
  await probe(ready.baselinePort, `${tracePath}/start`, 5000);
  const started = performance.now();
  const response = await request();
  const ms = performance.now() - started;
  const stopped = await probe(ready.baselinePort, `${tracePath}/stop`, 5000);
  const statements = sqlTraceSchema.safeParse(parseJson(stopped?.body ?? ''));
  if (!statements.success) throw new Error(`the SQL trace could not be read (${stopped?.status ?? 'no response'})`);
  return { ms, statements: statements.data, response };
}

async function invalidate(ready: ReadyLine, cookie: string, invalidation: Invalidation, round: number): Promise<void> {
  if (invalidation === 'none') return;
  const headers = { cookie, 'content-type': 'application/json' };
  const [pathname, body] =
    invalidation === 'activity'
      ? // A page view's details are only its path, and the same path again within 30 s is not stored
        // (nor announced): each invalidation views a page of its own.
        ['/api/activity/log', { activityType: 'page_view', details: JSON.stringify({ path: `/analytics?bench=${nextPageView()}` }) }]
      : ['/api/comments', { componentId: ready.comments.postComponentId, content: `Bench: a comment that drops the cached coverage before its cold request, round ${round}.` }];
  const response = await probe(ready.appPort, pathname, 5000, { method: 'POST', headers, body: JSON.stringify(body) });
  if (response === undefined || response.status < 200 || response.status > 299) {
    throw new Error(`POST ${pathname} (to drop the cached answer) failed: ${response === undefined ? 'no response' : unexpected(response)}`);
  }
}

/** The call's cold cost, before its load: the first request, then invalidation and request, COLD_ROUNDS times. */
async function measureCold(ready: ReadyLine, call: AnalyticsCall): Promise<ColdCall> {
  const cookie = await signedInCookie(ready);
  const pathname = call.path(ready);
  const get = () => probe(ready.appPort, pathname, 30_000, { method: 'GET', headers: { cookie } });
  const check = (response: ProbeResponse | undefined) => {
    const problem = response === undefined ? 'no response' : call.expect(response);
    if (problem !== undefined) throw new Error(`GET ${pathname} (cold): ${problem}`);
  };
  const first = await traced(ready, get);
  check(first.response);
  const rounds: { ms: number; statements: TracedStatement[] }[] = [];
  for (let round = 1; round <= COLD_ROUNDS; round += 1) {
    await invalidate(ready, cookie, call.invalidation, round);
    const cold = await traced(ready, get);
    check(cold.response);
    rounds.push(cold);
  }
  const cached = await traced(ready, get);
  const slowest = rounds.reduce((top, round) => (round.ms > top.ms ? round : top), rounds[0] ?? first);
  return {
    firstMs: first.ms,
    afterInvalidationMs: rounds.map((round) => round.ms),
    statements: [...slowest.statements].sort((a, b) => (b.ms ?? 0) - (a.ms ?? 0)),
    cachedStatements: cached.statements.length,
    bytes: Buffer.byteLength(cached.response?.body ?? ''),
  };
}

const shorten = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

function coldMedian(cold: ColdCall): number {
  return summarize(cold.afterInvalidationMs).median;
}

function judge(call: AnalyticsCall, load: LoadResult, ready: ReadyLine): Judgement {
  const cold = coldResults.get(ready)?.get(call.name);
  const bound = call.queries + 1;
  const target = `p99 < ${ANALYTICS_TARGETS.p99Ms} ms at ${load.connections} connections; ≤ ${bound} SQL statements a cold call (${bound + 1} with a last-seen update)`;
  const problems = p99Problems(load, ANALYTICS_TARGETS.p99Ms);
  const notes: string[] = [];
  let coldText = 'cold not measured';
  if (cold !== undefined) {
    const statements = cold.statements.length;
    // A last-seen update of the session may fall in any request (at most once a minute): one more is allowed for it.
    if (statements > bound + 1) problems.push(`a cold call ran ${statements} SQL statements, more than the ${bound} read in repo.ts (+1 for a last-seen update)`);
    const slowest = cold.statements[0];
    const coldMs = coldMedian(cold);
    const cachedWord = call.invalidation === 'none' ? 'never cached: every request' : `cached; ${cold.cachedStatements} statement(s) when answered from memory`;
    notes.push(
      `cold: first request ${fixed(cold.firstMs, 1)} ms, then ${cold.afterInvalidationMs.map((ms) => fixed(ms, 1)).join(' / ')} ms ` +
        `${call.invalidation === 'none' ? '(no cache: plain repeats)' : `after a POST ${call.invalidation === 'activity' ? '/api/activity/log' : '/api/comments'} dropped the answer`}; ` +
        `${statements} SQL statements (the session guard's included; ${call.queries} read in repo.ts: ${call.queriesRead}); ${cachedWord}`,
    );
    if (slowest !== undefined) notes.push(`slowest statement of a cold call: ${slowest.ms === null ? '?' : fixed(slowest.ms, 1)} ms: ${shorten(slowest.sql, 220)}`);
    if (Math.max(coldMs, cold.firstMs) >= ANALYTICS_TARGETS.coldMs) {
      notes.push(
        `COLD CALL OVER ${ANALYTICS_TARGETS.coldMs} ms (first ${fixed(cold.firstMs, 1)} ms, median after invalidation ${fixed(coldMs, 1)} ms): ` +
          `every request after a change waits for it; the slowest statement is the one above`,
      );
    }
    coldText = `cold ${fixed(coldMs, 1)} ms (first ${fixed(cold.firstMs, 1)} ms${Math.max(coldMs, cold.firstMs) >= ANALYTICS_TARGETS.coldMs ? ', OVER 100 ms' : ''}), ${statements} statements`;
  }
  notes.push(`under load: p50 ${fixed(load.latencyMs.p50, 2)} ms, max ${fixed(load.latencyMs.max, 1)} ms${cold === undefined ? '' : `; ${thousands(cold.bytes)} bytes an answer`}`);
  return {
    target,
    gated: true,
    problems,
    notes,
    measured: `${thousands(load.requestsPerSecond)} req/s, p99 ${fixed(load.latencyMs.p99, 2)} ms; ${coldText}`,
  };
}

function scenarioOf(call: AnalyticsCall): Scenario {
  return {
    ...get(scenarioName(call), call.path, { connections: SETTINGS.analyticsConnections }),
    needsActivityData: true,
    // The cold figures first, on the idle server; then the load's headers.
    prepare: async (ready) => {
      let calls = coldResults.get(ready);
      if (calls === undefined) {
        calls = new Map();
        coldResults.set(ready, calls);
      }
      calls.set(call.name, await measureCold(ready, call));
      return { headers: { cookie: await signedInCookie(ready) } };
    },
    expect: (response) => call.expect(response),
    judge: (load, { ready }) => judge(call, load, ready),
  };
}

export const ANALYTICS_SCENARIOS: Scenario[] = CALLS.map(scenarioOf);
