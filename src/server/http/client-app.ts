import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ROUTES, isScreenPath } from '../../common/routes.js';
import { notFound } from '../errors.js';
import type { App } from './types.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SOURCE_MAP = /\.map(\.(gz|br))?$/i;

/**
 * Serves the built SPA: hashed files under /assets are cached forever, everything else must be
 * revalidated. Every screen path of the product answers index.html with 200; an unknown path without a
 * file extension answers index.html with 404 so the SPA shows 'Page Not Found' and crawlers and
 * monitors still see the truth.
 */
export async function registerClientApp(app: App, clientDir: string | undefined): Promise<{ serveIndex: (request: FastifyRequest, reply: FastifyReply, status: number) => FastifyReply } | undefined> {
  const indexFile = clientDir === undefined ? undefined : path.join(clientDir, 'index.html');
  if (clientDir === undefined || indexFile === undefined || !existsSync(indexFile)) return undefined;
  const indexHtml = readFileSync(indexFile);

  await app.register(fastifyStatic, {
    root: clientDir,
    wildcard: false,
    index: false,
    preCompressed: true,
    // Cache headers come from setHeaders alone; the plugin's own default (max-age=0) would override them.
    cacheControl: false,
    // The build makes no source maps (vite.config.ts); one copied in by hand is still not served.
    allowedPath: (pathname) => !SOURCE_MAP.test(pathname),
    setHeaders(res, filePath) {
      const relative = path.relative(clientDir, filePath);
      res.setHeader('cache-control', relative.startsWith(`assets${path.sep}`) ? IMMUTABLE : 'no-cache');
    },
  });

  const serveIndex = (_request: FastifyRequest, reply: FastifyReply, status: number) =>
    reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);

  for (const screen of Object.values(ROUTES)) {
    app.get(screen, (request, reply) => serveIndex(request, reply, 200));
  }
  return { serveIndex };
}

export function hasFileExtension(pathname: string): boolean {
  return /\.[a-z0-9]{1,8}$/i.test(pathname);
}

export function spaStatusFor(pathname: string): number {
  return isScreenPath(pathname) ? 200 : 404;
}

export function apiNotFound(method: string, pathname: string) {
  return notFound(`No such API endpoint: ${method} ${pathname}`);
}
