import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ROUTES, isScreenPath } from '../../common/routes.js';
import { notFound } from '../errors.js';
import { screenDocuments, type Viewer } from './screen-hints.js';
import type { App } from './types.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SOURCE_MAP = /\.map(\.(gz|br))?$/i;

/**
 * Serves the built SPA: hashed files under /assets are cached forever, everything else must be
 * revalidated. Every screen path of the product answers index.html with 200; an unknown path without a
 * file extension answers index.html with 404 so the SPA shows 'Page Not Found' and crawlers and
 * monitors still see the truth.
 */
export async function registerClientApp(
  app: App,
  clientDir: string | undefined,
  viewerOf: (request: FastifyRequest) => Promise<Viewer>,
): Promise<{ serveIndex: (request: FastifyRequest, reply: FastifyReply, status: number) => FastifyReply } | undefined> {
  const indexFile = clientDir === undefined ? undefined : path.join(clientDir, 'index.html');
  if (clientDir === undefined || indexFile === undefined || !existsSync(indexFile)) return undefined;
  const indexHtml = readFileSync(indexFile, 'utf8');
  const screenDocument = screenDocuments(clientDir, indexHtml);

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

  const sendDocument = (reply: FastifyReply, status: number, html: string) =>
    // A screen's document depends on the session cookie (its hints do), so no cache may share it.
    reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'cookie').send(html);
  const serveIndex = (_request: FastifyRequest, reply: FastifyReply, status: number) => sendDocument(reply, status, indexHtml);

  for (const screen of Object.values(ROUTES)) {
    app.get(screen, async (request, reply) => sendDocument(reply, 200, screenDocument(screen, await viewerOf(request))));
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
