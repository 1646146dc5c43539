import { decisionsContract } from '../../../common/contract/decisions.js';
import type { App } from '../../http/types.js';
import { requireAdmin } from '../auth/guards.js';
import type { DecisionService } from './service.js';

/** A component's decisions: every member reads them; an admin records one. */
export function registerDecisionRoutes(app: App, decisions: DecisionService) {
  app.get(
    decisionsContract.history.path,
    { schema: { params: decisionsContract.history.params, response: decisionsContract.history.response } },
    async (request) => decisions.history(request.params.componentId),
  );

  app.post(
    decisionsContract.record.path,
    { schema: { params: decisionsContract.record.params, body: decisionsContract.record.body, response: decisionsContract.record.response }, config: { access: 'admin' } },
    async (request, reply) => reply.status(201).send(await decisions.record(requireAdmin(request), { ip: request.ip }, request.params.componentId, request.body)),
  );
}
