import { aiContract } from '../../../common/contract/ai.js';
import type { App } from '../../http/types.js';
import { requireAdmin } from '../auth/guards.js';
import type { PromptService } from './service.js';

/** The admin's narrative-summary prompts: admin role by the route, admin password by the service. */
export function registerAiPromptRoutes(app: App, prompts: PromptService) {
  app.get(aiContract.prompts.path, { config: { access: 'admin' }, schema: { querystring: aiContract.prompts.querystring, response: aiContract.prompts.response } }, async (request) =>
    prompts.list(request.query),
  );

  app.get(aiContract.prompt.path, { config: { access: 'admin' }, schema: { params: aiContract.prompt.params, response: aiContract.prompt.response } }, async (request) =>
    prompts.get(request.params.id),
  );

  app.get(aiContract.activePrompt.path, { config: { access: 'admin' }, schema: { response: aiContract.activePrompt.response } }, async () =>
    prompts.activeNarrativePrompt(),
  );

  app.post(
    aiContract.createPrompt.path,
    { config: { access: 'admin' }, schema: { body: aiContract.createPrompt.body, response: aiContract.createPrompt.response } },
    async (request, reply) => reply.status(201).send(await prompts.create(requireAdmin(request), { ip: request.ip }, request.body)),
  );

  app.post(
    aiContract.activatePrompt.path,
    { config: { access: 'admin' }, schema: { params: aiContract.activatePrompt.params, body: aiContract.activatePrompt.body, response: aiContract.activatePrompt.response } },
    async (request) => prompts.activate(requireAdmin(request), { ip: request.ip }, request.params.id, request.body.adminPassword),
  );
}
