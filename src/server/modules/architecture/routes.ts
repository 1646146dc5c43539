import { createHash } from 'node:crypto';
import { architectureContract, type Architecture } from '../../../common/contract/architecture.js';
import { JSON_UTF8 } from '../../http/cached-json.js';
import { COMPRESS_REUSED_BYTES } from '../../http/compression.js';
import type { App } from '../../http/types.js';

/**
 * Members only (the default access): the architecture is the team's internal design. `private`
 * keeps shared caches out; five minutes spares a refetch on every page change, and a content change
 * needs a restart anyway. The ETag lets a browser revalidate an expired copy for a 304.
 */
const CACHE_CONTROL = 'private, max-age=300';

export function registerArchitectureRoutes(app: App, architecture: Architecture) {
  // The content is fixed for the life of the process (validated against the contract at start-up),
  // so its bytes and their tag are made once, and each compressed copy once, on its first request.
  const body = Buffer.from(JSON.stringify(architecture));
  // Strong: the tag of these exact bytes. A compressed copy carries it too (ADR 0029).
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

  // The answer is bytes, so no response schema: the contract's schema checked the content at start-up.
  app.get(architectureContract.get.path, { compress: COMPRESS_REUSED_BYTES }, async (request, reply) => {
    // Every answer says it depends on Accept-Encoding, so a cache never gives gzip to a client that asked for none.
    reply.header('cache-control', CACHE_CONTROL).header('etag', etag).header('vary', 'accept-encoding');
    // 304 carries no body, so nothing is compressed.
    if (ifNoneMatchIncludes(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.code(200).type(JSON_UTF8).send(body);
  });
}

/** RFC 9110 13.1.2: a list of tags or '*', compared weakly (a W/ prefix still matches). */
function ifNoneMatchIncludes(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
