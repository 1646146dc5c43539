/** Reads while one member floods the busiest component with comments and summary requests, at the per-member limits. */
import { describeFlood, startFlood, type Flood, type FloodReport } from '../lib/flood.js';
import type { LoadResult } from '../lib/load.js';
import type { ReadyLine } from '../lib/protocol.js';
import { get, p99Problems, signedInCookie, signedInHeaders, unexpected, withVotesOf, type Judgement, type Scenario } from '../lib/scenario.js';
import { fixed, thousands } from '../lib/table.js';
import { sameBytes, COMMENT_READ_TARGETS } from './comment-reads.js';
import { READ_TARGETS } from './reads.js';

/** The busiest component has the slowest analysis. */
async function floodBusiest(ready: ReadyLine): Promise<Flood> {
  return startFlood({ port: ready.appPort, cookie: await signedInCookie(ready), componentId: ready.comments.busiest.componentId });
}

function floodJudgement(load: LoadResult, p99TargetMs: number, ready: ReadyLine, flood: FloodReport | undefined): Judgement {
  const problems = p99Problems(load, p99TargetMs);
  if (flood === undefined) problems.push('the flood did not run');
  else if (flood.comments.created === 0 || flood.summaries.ok === 0) problems.push(`the flood was refused (${JSON.stringify(flood)})`);
  const { busiest } = ready.comments;
  return {
    target: `p99 < ${p99TargetMs} ms while one member floods`,
    gated: true,
    problems,
    notes: flood === undefined ? [] : [describeFlood(flood, busiest.componentId, busiest.comments)],
    measured: `${thousands(load.requestsPerSecond)} req/s, p99 ${fixed(load.latencyMs.p99, 2)} ms`,
  };
}

const healthDuringFlood: Scenario = {
  ...get('GET /api/health while a member floods', '/api/health'),
  expect: (response) => (response.status === 200 ? undefined : unexpected(response)),
  flood: floodBusiest,
  judge: (load, { ready, flood }) => floodJudgement(load, READ_TARGETS.healthP99Ms, ready, flood),
};

const typicalDuringFlood: Scenario = {
  ...get('GET with-votes typical while a member floods', withVotesOf('typical')),
  prepare: signedInHeaders,
  expect: sameBytes,
  flood: floodBusiest,
  judge: (load, { ready, flood }) => floodJudgement(load, COMMENT_READ_TARGETS.typicalP99Ms, ready, flood),
};

export const FLOOD_SCENARIOS: Scenario[] = [healthDuringFlood, typicalDuringFlood];
