/** Comment reads on the generated data set: the typical, largest and busiest components, the counts and a cached summary. */
import { createHash } from 'node:crypto';
import type { ProbeResponse } from '../lib/processes.js';
import type { ReadyLine } from '../lib/protocol.js';
import { parseJson } from '../lib/output.js';
import { SETTINGS } from '../lib/settings.js';
import { get, info, p99Judgement, p99Problems, percentOf, signedInHeaders, unexpected, withVotesOf, withVotesPath, type Scenario } from '../lib/scenario.js';
import { fixed, thousands } from '../lib/table.js';

export const COMMENT_READ_TARGETS = {
  /** The typical component's comments against the same bytes served from memory. */
  typicalRatio: 0.25,
  typicalP99Ms: 25,
  largestP99Ms: 200,
  cachedSummaryP99Ms: 15,
} as const;
const T = COMMENT_READ_TARGETS;

export const TYPICAL_BASELINE = 'baseline same bytes (typical with-votes)';

/** The typical component's answer, byte for byte what the server fetched before listening. */
export function sameBytes(response: ProbeResponse, ready: ReadyLine): string | undefined {
  const expected = ready.comments.sameBytes;
  if (response.status !== 200 || !response.contentType.startsWith('application/json')) return unexpected(response);
  if (createHash('sha256').update(response.body, 'utf8').digest('hex') !== expected.sha256) {
    return `the body (${Buffer.byteLength(response.body)} bytes) differs from the ${expected.bytes} bytes fetched before listening`;
  }
  return undefined;
}

function commentArray(response: ProbeResponse, count: number): string | undefined {
  if (response.status !== 200) return unexpected(response);
  const body = parseJson(response.body);
  return Array.isArray(body) && body.length === count ? undefined : `expected ${count} comments, got ${response.body.slice(0, 80)}`;
}

const sameBytesBaseline: Scenario = {
  ...get(TYPICAL_BASELINE, (ready) => ready.comments.sameBytes.path, { server: 'baseline' }),
  expect: sameBytes,
  judge: (_load, { ready }) =>
    info('reference for the typical component', [
      `the ${thousands(ready.comments.sameBytes.bytes)} bytes the app answered for GET ${withVotesPath(ready.comments.typical.componentId)}, sent from memory`,
    ]),
};

const typical: Scenario = {
  ...get('GET with-votes typical (signed in)', withVotesOf('typical')),
  baseline: TYPICAL_BASELINE,
  prepare: signedInHeaders,
  expect: sameBytes,
  judge: (load, { ratio, ready }) => {
    const share = ratio >= T.typicalRatio ? [] : [`req/s is ${percentOf(ratio)} of its same-bytes baseline, under ${T.typicalRatio * 100}%`];
    const { typical: component, sameBytes: bytes } = ready.comments;
    return {
      target: `≥ ${T.typicalRatio * 100}% of same-bytes baseline, p99 < ${T.typicalP99Ms} ms`,
      gated: true,
      problems: [...share, ...p99Problems(load, T.typicalP99Ms)],
      notes: [`${component.componentId}: ${thousands(component.comments)} comments, ${thousands(component.votes)} votes, ${thousands(bytes.bytes)} bytes a response`],
      measured: `${thousands(load.requestsPerSecond)} req/s (${percentOf(ratio)} of its same-bytes baseline), p99 ${fixed(load.latencyMs.p99, 2)} ms`,
    };
  },
};

const largest: Scenario = {
  ...get('GET with-votes largest (signed in)', withVotesOf('largest'), { connections: SETTINGS.commentConnections }),
  prepare: signedInHeaders,
  expect: (response, ready) => commentArray(response, ready.comments.largest.comments),
  judge: (load, { ready }) => {
    const { componentId, comments, votes } = ready.comments.largest;
    return p99Judgement(load, T.largestP99Ms, SETTINGS.commentConnections, [`${componentId}: ${thousands(comments)} comments, ${thousands(votes)} votes`]);
  },
};

const busiest: Scenario = {
  ...get('GET with-votes busiest (signed in)', withVotesOf('busiest'), { connections: SETTINGS.commentConnections, durationSeconds: SETTINGS.infoDurationSeconds }),
  prepare: signedInHeaders,
  expect: (response, ready) => commentArray(response, ready.comments.busiest.comments),
  judge: (load, { ready }) => {
    const { componentId, comments, votes } = ready.comments.busiest;
    return info(`— (the target's "largest" is 500; p99 < ${T.largestP99Ms} ms for comparison)`, [
      `${componentId}: ${thousands(comments)} comments, ${thousands(votes)} votes, the most of any component; ` +
        `p99 ${fixed(load.latencyMs.p99, 2)} ms ${load.latencyMs.p99 < T.largestP99Ms ? 'would meet' : 'would miss'} the largest's target`,
    ]);
  },
};

const counts: Scenario = {
  ...get('GET /api/comments/counts (signed in)', '/api/comments/counts', { durationSeconds: SETTINGS.infoDurationSeconds }),
  prepare: signedInHeaders,
  expect: (response) => (response.status === 200 && response.body.startsWith('{') ? undefined : unexpected(response)),
  judge: (_load, { ready }) => info('—', [`a count grouped by component over all ${thousands(ready.comments.comments)} comments`]),
};

const cachedSummary: Scenario = {
  ...get('GET summary largest, cached (signed in)', (ready) => `/api/comments/${ready.comments.largest.componentId}/summary?title=bench`),
  prepare: signedInHeaders,
  // The probe before the load makes and stores the summary; the load reads the stored one.
  expect: (response, ready) => {
    if (response.status !== 200) return unexpected(response);
    const parsed = parseJson(response.body);
    const ids = typeof parsed === 'object' && parsed !== null && 'commentIds' in parsed && Array.isArray(parsed.commentIds) ? parsed.commentIds.length : -1;
    return ids === ready.comments.largest.comments ? undefined : `a summary of ${ids} comments, not ${ready.comments.largest.comments}`;
  },
  judge: (load, { ready }) =>
    p99Judgement(load, T.cachedSummaryP99Ms, SETTINGS.connections, [
      `the stored summary of ${ready.comments.largest.componentId}'s ${thousands(ready.comments.largest.comments)} comments, made once before the load`,
    ]),
};

export const COMMENT_READ_SCENARIOS: Scenario[] = [sameBytesBaseline, typical, largest, busiest, counts, cachedSummary];
