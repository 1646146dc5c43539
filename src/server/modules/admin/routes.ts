import { adminContract } from '../../../common/contract/admin.js';
import type { App } from '../../http/types.js';
import { requireAdmin } from '../auth/guards.js';
import type { AdminService } from './service.js';

/** The admin panel's calls: every one is admin-only (the guard), every change carries the admin password (the service). */
export function registerAdminRoutes(app: App, admin: AdminService) {
  const adminOnly = { access: 'admin' } as const;

  app.get(adminContract.members.path, { config: adminOnly, schema: { response: adminContract.members.response } }, async () => admin.members());

  app.post(
    adminContract.addMember.path,
    { config: adminOnly, schema: { body: adminContract.addMember.body, response: adminContract.addMember.response } },
    async (request, reply) => reply.status(201).send(await admin.addMember(requireAdmin(request), { ip: request.ip }, request.body)),
  );

  app.post(
    adminContract.enrollmentLink.path,
    { config: adminOnly, schema: { params: adminContract.enrollmentLink.params, body: adminContract.enrollmentLink.body, response: adminContract.enrollmentLink.response } },
    async (request) => admin.enrollmentLink(requireAdmin(request), { ip: request.ip }, request.params.id, request.body.adminPassword),
  );

  app.post(
    adminContract.unlock.path,
    { config: adminOnly, schema: { params: adminContract.unlock.params, body: adminContract.unlock.body, response: adminContract.unlock.response } },
    async (request) => admin.unlock(requireAdmin(request), { ip: request.ip }, request.params.id, request.body.adminPassword),
  );

  app.post(
    adminContract.setRole.path,
    { config: adminOnly, schema: { params: adminContract.setRole.params, body: adminContract.setRole.body, response: adminContract.setRole.response } },
    async (request) => admin.setRole(requireAdmin(request), { ip: request.ip }, request.params.id, request.body),
  );

  app.post(
    adminContract.setActive.path,
    { config: adminOnly, schema: { params: adminContract.setActive.params, body: adminContract.setActive.body, response: adminContract.setActive.response } },
    async (request) => admin.setActive(requireAdmin(request), { ip: request.ip }, request.params.id, request.body),
  );

  app.post(
    adminContract.initQa.path,
    { config: adminOnly, schema: { body: adminContract.initQa.body, response: adminContract.initQa.response } },
    async (request) => admin.initQa(requireAdmin(request), { ip: request.ip }, request.body.adminPassword),
  );

  app.get(adminContract.pinResetRequests.path, { config: adminOnly, schema: { response: adminContract.pinResetRequests.response } }, async () => admin.pinResetRequests());

  app.post(
    adminContract.resetPin.path,
    { config: adminOnly, schema: { params: adminContract.resetPin.params, body: adminContract.resetPin.body, response: adminContract.resetPin.response } },
    async (request) => admin.resetPin(requireAdmin(request), { ip: request.ip }, request.params.id, request.body.adminPassword),
  );

  app.post(
    adminContract.resolvePinReset.path,
    { config: adminOnly, schema: { params: adminContract.resolvePinReset.params, body: adminContract.resolvePinReset.body, response: adminContract.resolvePinReset.response } },
    async (request) => admin.resolvePinReset(requireAdmin(request), { ip: request.ip }, request.params.id, request.body.adminPassword),
  );

  app.get(adminContract.audit.path, { config: adminOnly, schema: { querystring: adminContract.audit.querystring, response: adminContract.audit.response } }, async (request) =>
    admin.audit(request.query),
  );

  app.get(adminContract.system.path, { config: adminOnly, schema: { response: adminContract.system.response } }, () => admin.system());
}
