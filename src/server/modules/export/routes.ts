import { Readable } from 'node:stream';
import { exportContract } from '../../../common/contract/export.js';
import { perMemberRule, type RateLimiter } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';
import type { Database } from '../../db/schema.js';
import type { Kysely } from 'kysely';
import { csvExport, markdownExport, type ReviewedComponent } from './export.js';
import { htmlExport, REPORT_CONTENT_SECURITY_POLICY } from './html.js';

/** Exports read the whole review: a member gets a few a minute, which no one downloading a report needs more of. */
const EXPORTS_PER_MINUTE = 10;

const fileDay = () => new Date().toISOString().slice(0, 10);

/**
 * The review as Markdown and CSV files and as a printable HTML page, streamed as they are read;
 * every member may download or open them.
 */
export function registerExportRoutes(app: App, deps: { db: Kysely<Database>; components: readonly ReviewedComponent[]; limiter: RateLimiter }) {
  const { db, components, limiter } = deps;
  const onRequest = limiter.hook(perMemberRule('export', EXPORTS_PER_MINUTE, 'Too many exports at once; try again in a minute'));

  app.get(exportContract.markdown.path, { onRequest }, async (_request, reply) =>
    reply
      .type('text/markdown; charset=utf-8')
      .header('content-disposition', `attachment; filename="architecture-review-${fileDay()}.md"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(markdownExport(db, components))),
  );

  // Opened in a tab, not downloaded. Its own policy allows its inline style by hash and no script;
  // every other security header stays as the app sends it.
  app.get(exportContract.html.path, { onRequest }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-disposition', 'inline')
      .header('content-security-policy', REPORT_CONTENT_SECURITY_POLICY)
      .header('cache-control', 'no-store')
      .send(Readable.from(htmlExport(db, components))),
  );

  app.get(exportContract.csv.path, { onRequest, schema: { querystring: exportContract.csv.querystring } }, async (request, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="architecture-review-${request.query.kind}-${fileDay()}.csv"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(csvExport(db, request.query.kind, components))),
  );
}
