import { commentsContract } from '../../../shared/contract/comments.js';
import { requireMember } from '../auth/guards.js';
import type { App } from '../../http/types.js';
import type { CommentService } from './service.js';

const JSON_UTF8 = 'application/json; charset=utf-8';

export function registerCommentRoutes(app: App, comments: CommentService) {
  // The two hot reads answer JSON bytes the service built from contract-typed values and cached;
  // Fastify writes a Buffer as is, without a second serialization or encoding.
  app.get(commentsContract.counts.path, async (request, reply) => {
    requireMember(request);
    return reply.type(JSON_UTF8).send(await comments.countsJson());
  });

  app.get(commentsContract.withVotes.path, { schema: { params: commentsContract.withVotes.params } }, async (request, reply) =>
    reply.type(JSON_UTF8).send(await comments.withVotesJson(request.params.componentId)),
  );

  app.post(
    commentsContract.create.path,
    { schema: { body: commentsContract.create.body, response: commentsContract.create.response } },
    async (request, reply) => {
      const created = await comments.create(requireMember(request), request.body);
      return reply.status(201).send(created);
    },
  );

  app.delete(commentsContract.remove.path, { schema: { params: commentsContract.remove.params } }, async (request, reply) => {
    await comments.remove(requireMember(request), request.params.id);
    return reply.status(204).send();
  });

  app.post(
    commentsContract.vote.path,
    { schema: { params: commentsContract.vote.params, body: commentsContract.vote.body, response: commentsContract.vote.response } },
    async (request) => comments.vote(requireMember(request), request.params.id, request.body.voteType),
  );
}
