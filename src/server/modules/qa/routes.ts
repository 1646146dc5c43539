import { qaContract } from '../../../common/contract/qa.js';
import type { App } from '../../http/types.js';
import { requireAdmin } from '../auth/guards.js';
import type { QaRunnerDeps, QaRunnerOptions } from './runner.js';
import { QaService } from './service.js';

/**
 * The self-test's calls: run it, its progress, the latest results (admin only). The run takes no
 * body: it signs in as the QA member, never as the admin, so it needs no admin password.
 */
export function registerQaRoutes(app: App, deps: Omit<QaRunnerDeps, 'app'>, options: QaRunnerOptions = {}): void {
  const qa = new QaService({ app, ...deps }, options);
  const adminOnly = { access: 'admin' } as const;

  app.get(qaContract.testResults.path, { config: adminOnly, schema: { querystring: qaContract.testResults.querystring, response: qaContract.testResults.response } }, async () =>
    qa.latestResults(),
  );

  app.post(qaContract.runTests.path, { config: adminOnly, schema: { response: qaContract.runTests.response } }, async (request) =>
    qa.run(requireAdmin(request), { ip: request.ip }),
  );

  app.get(qaContract.progress.path, { config: adminOnly, schema: { response: qaContract.progress.response } }, async () => qa.progress());
}
