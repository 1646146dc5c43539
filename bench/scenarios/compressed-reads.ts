/**
 * Reads as a browser asks for them, with Accept-Encoding: the typical and largest comments and the
 * architecture, brotli and gzip, next to the architecture read without it. Information only: each
 * says which encoding it was answered with and what one answer costs on the wire. Compare the
 * server's CPU per request with the uncompressed read's rather than req/s: autocannon appends every
 * body to a string, which costs it more for compressed bytes than for JSON (see bench/README.md).
 */
import type { LoadResult } from '../lib/load.js';
import { parseJson } from '../lib/output.js';
import type { ProbeResponse } from '../lib/processes.js';
import type { ReadyLine } from '../lib/protocol.js';
import { get, info, signedInCookie, unexpected, withVotesOf, type Judgement, type Scenario } from '../lib/scenario.js';
import { SETTINGS } from '../lib/settings.js';
import { fixed, thousands } from '../lib/table.js';
import { sameBytes, TYPICAL_BASELINE } from './comment-reads.js';

/** What a current browser sends, and what one without brotli sends. */
const ACCEPT = { br: 'gzip, deflate, br, zstd', gzip: 'gzip, deflate' } as const;
type Asked = keyof typeof ACCEPT | 'none';

/** The probe's answer of each scenario before its load, for its notes. */
const probed = new Map<string, ProbeResponse>();

function headersAsking(asked: Asked) {
  return async (ready: ReadyLine) => ({ headers: { cookie: await signedInCookie(ready), ...(asked === 'none' ? {} : { 'accept-encoding': ACCEPT[asked] }) } });
}

function onWire(name: string, load: LoadResult): string[] {
  const answer = probed.get(name);
  if (answer === undefined) return [];
  const bodyBytes = Buffer.byteLength(answer.body);
  const encoding = answer.contentEncoding === '' ? 'uncompressed' : `Content-Encoding ${answer.contentEncoding}`;
  return [
    `answered ${encoding}: ${thousands(answer.wireBytes)} bytes of body for ${thousands(bodyBytes)} bytes of JSON (${fixed((answer.wireBytes / Math.max(1, bodyBytes)) * 100, 1)}%)` +
      `${answer.etag === '' ? '' : ', with an ETag'}; ${thousands(load.bytesPerResponse)} bytes a response read under load, headers included`,
  ];
}

function compressed(name: string, path: Scenario['path'], asked: Asked, check: (response: ProbeResponse, ready: ReadyLine) => string | undefined, options: Parameters<typeof get>[2] = {}): Scenario {
  return {
    ...get(name, path, { durationSeconds: SETTINGS.infoDurationSeconds, ...options }),
    prepare: headersAsking(asked),
    expect: (response, ready) => {
      probed.set(name, response);
      return check(response, ready);
    },
    judge: (load): Judgement => info('—', onWire(name, load)),
  };
}

function architecture(response: ProbeResponse): string | undefined {
  if (response.status !== 200 || !response.contentType.startsWith('application/json')) return unexpected(response);
  const body = parseJson(response.body);
  return typeof body === 'object' && body !== null && 'diagram' in body ? undefined : `not the architecture: ${response.body.slice(0, 80)}`;
}

function commentArray(response: ProbeResponse, ready: ReadyLine): string | undefined {
  if (response.status !== 200) return unexpected(response);
  const body = parseJson(response.body);
  const count = ready.comments.largest.comments;
  return Array.isArray(body) && body.length === count ? undefined : `expected ${count} comments, got ${response.body.slice(0, 80)}`;
}

export const COMPRESSED_READ_SCENARIOS: Scenario[] = [
  { ...compressed('GET with-votes typical, br (signed in)', withVotesOf('typical'), 'br', sameBytes), baseline: TYPICAL_BASELINE },
  { ...compressed('GET with-votes typical, gzip (signed in)', withVotesOf('typical'), 'gzip', sameBytes), baseline: TYPICAL_BASELINE },
  compressed('GET with-votes largest, br (signed in)', withVotesOf('largest'), 'br', commentArray, { connections: SETTINGS.commentConnections }),
  compressed('GET /api/architecture (signed in)', '/api/architecture', 'none', architecture),
  compressed('GET /api/architecture, br (signed in)', '/api/architecture', 'br', architecture),
  compressed('GET /api/architecture, gzip (signed in)', '/api/architecture', 'gzip', architecture),
];
