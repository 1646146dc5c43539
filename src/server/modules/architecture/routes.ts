import { createHash } from 'node:crypto';
import { z } from 'zod';
import { architectureContract, type Architecture } from '../../../common/contract/architecture.js';
import type { App } from '../../http/types.js';

/**
 * Members only (the default access): the architecture is the team's internal design. `private`
 * keeps shared caches out; five minutes spares a refetch on every page change, and a content change
 * needs a restart anyway. The ETag lets a browser revalidate an expired copy for a 304.
 */
const CACHE_CONTROL = 'private, max-age=300';

export function registerArchitectureRoutes(app: App, architecture: Architecture) {
  // The content is fixed for the life of the process, so its tag is computed once.
  const etag = `"${createHash('sha256').update(JSON.stringify(architecture)).digest('base64url').slice(0, 27)}"`;

  app.get(
    architectureContract.get.path,
    // 304 carries no body (Fastify drops it); the entry only types reply.code(304).
    { schema: { response: { ...architectureContract.get.response, 304: z.null() } } },
    async (request, reply) => {
      reply.header('cache-control', CACHE_CONTROL).header('etag', etag);
      if (ifNoneMatchIncludes(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
      return reply.code(200).send(architecture);
    },
  );
}

/** RFC 9110 13.1.2: a list of tags or '*', compared weakly (a W/ prefix still matches). */
function ifNoneMatchIncludes(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
