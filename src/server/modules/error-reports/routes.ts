import { errorLogContract, reportErrorContract } from '../../../common/contract/error-reports.js';
import { ERROR_REPORT_LIMITS } from '../../../common/limits.js';
import type { RateLimiter } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';
import { requireAdmin } from '../auth/guards.js';
import type { ErrorReports } from './service.js';

export function registerErrorReportRoutes(app: App, deps: { reports: ErrorReports; limiter: RateLimiter }) {
  app.post(
    reportErrorContract.path,
    {
      bodyLimit: ERROR_REPORT_LIMITS.bodyBytes,
      // Reports come from signed-out screens too (the sign-in page can fail); a session adds the name.
      config: { access: 'public' },
      // Counted before the body is read, so a flood of malformed reports is throttled too.
      onRequest: deps.limiter.hook({
        name: 'error-report',
        max: ERROR_REPORT_LIMITS.perMinutePerIp,
        windowMs: 60_000,
        message: 'Too many error reports',
      }),
      schema: { body: reportErrorContract.body, response: reportErrorContract.response },
    },
    async (request, reply) => {
      const id = await deps.reports.record(request.body, { memberName: request.member?.full_name ?? null, ip: request.ip });
      return reply.status(201).send({ id });
    },
  );

  const adminOnly = { access: 'admin' } as const;
  app.get(errorLogContract.list.path, { config: adminOnly, schema: { response: errorLogContract.list.response } }, async () => deps.reports.list({ unresolvedOnly: false }));
  app.get(errorLogContract.unresolved.path, { config: adminOnly, schema: { response: errorLogContract.unresolved.response } }, async () =>
    deps.reports.list({ unresolvedOnly: true }),
  );
  app.patch(
    errorLogContract.resolve.path,
    { config: adminOnly, schema: { params: errorLogContract.resolve.params, response: errorLogContract.resolve.response } },
    async (request) => deps.reports.resolve(requireAdmin(request), { ip: request.ip }, request.params.id),
  );
}
