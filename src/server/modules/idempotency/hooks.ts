import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_REPLAYED_HEADER } from '../../../common/api/idempotency.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';
import type { Database } from '../../db/schema.js';
import { AppError, badRequest } from '../../errors.js';
import type { App } from '../../http/types.js';
import { claimKey, deleteAnswersBefore, findAnswer, reclaimStaleKey, releaseKey, storeAnswer } from './repo.js';

/** A retry comes within seconds or minutes; a day covers a laptop that slept through it. */
export const ANSWER_RETENTION_MS = 24 * 3_600_000;
/** A claim this old without an answer belongs to a request whose process died: a retry may run it. */
const STALE_CLAIM_MS = 60_000;
/** Answers are a comment, a vote count, a member: small. A larger one is not kept (the retry runs again). */
const MAX_STORED_BODY_CHARS = 64 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this request claimed; its answer is stored when it is sent. */
    idempotencyClaim: { memberId: number; key: string } | null;
  }
}

/** Method, route and what the request carried: the same key sent with anything else is a client bug. */
function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([request.method, request.routeOptions.url ?? '', request.params ?? null, request.query ?? null, request.body ?? null]))
    .digest('hex');
}

/** What the write came to. Not a refusal that says 'later' (408, 429) or a failure of ours (5xx): a retry runs those again. */
function isFinalAnswer(statusCode: number): boolean {
  return statusCode < 500 && statusCode !== 408 && statusCode !== 429;
}

/** The answer as text, when it is one: JSON text, a buffer of it, or nothing (204); a stream is not kept. */
function answerText(payload: unknown): string | undefined {
  if (payload === undefined || payload === null) return '';
  if (typeof payload === 'string') return payload;
  return Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
}

function replay(reply: FastifyReply, statusCode: number, body: string) {
  reply.status(statusCode).header(IDEMPOTENCY_REPLAYED_HEADER, 'true');
  return body === '' ? reply.send() : reply.type('application/json; charset=utf-8').send(body);
}

/**
 * Idempotency-Key on writes (the IETF httpapi draft's header): a signed-in member's write sent
 * with a key is done once. The first request claims the key, and its answer is kept with it; a
 * retry with the same key gets that answer, changing nothing, so a comment is never posted twice
 * and a vote never flipped back by a retry after a lost answer. A retry while the first is still
 * running is told to wait; the same key with another request is refused. A 5xx answer releases the
 * key, so the retry runs the write again (nothing was done, or the database says so).
 */
export function registerIdempotency(app: App, db: Kysely<Database>) {
  app.decorateRequest('idempotencyClaim', null);

  app.addHook('preHandler', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.member === null) return undefined;
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (header === undefined) return undefined;
    const key = Array.isArray(header) ? undefined : header;
    if (key === undefined || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw badRequest('Idempotency-Key must be 8 to 128 letters, digits, dots, dashes, underscores or colons');
    }
    const memberId = request.member.id;
    const hash = requestHash(request);
    const now = Date.now();
    if (await claimKey(db, memberId, key, hash, now)) {
      request.idempotencyClaim = { memberId, key };
      return undefined;
    }
    const stored = await findAnswer(db, memberId, key);
    if (stored === undefined) {
      // Released (a 5xx) between the two queries: this retry may run.
      if (await claimKey(db, memberId, key, hash, now)) request.idempotencyClaim = { memberId, key };
      return undefined;
    }
    if (stored.requestHash !== hash) {
      throw new AppError(422, ERROR_CODES.idempotencyKeyReused, 'This Idempotency-Key was already used for a different request');
    }
    if (stored.statusCode !== null && stored.body !== null) return replay(reply, stored.statusCode, stored.body);
    if (await reclaimStaleKey(db, memberId, key, now - STALE_CLAIM_MS, now)) {
      request.idempotencyClaim = { memberId, key };
      return undefined;
    }
    throw new AppError(409, ERROR_CODES.idempotencyKeyInFlight, 'The first request with this Idempotency-Key is still being answered; try again in a second', { 'retry-after': '1' });
  });

  // Added before any route, so it sees the serialized JSON text before compression turns it into bytes.
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (claim === null) return payload;
    request.idempotencyClaim = null;
    const text = answerText(payload);
    try {
      if (isFinalAnswer(reply.statusCode) && text !== undefined && text.length <= MAX_STORED_BODY_CHARS) {
        await storeAnswer(db, claim.memberId, claim.key, reply.statusCode, text);
      } else {
        await releaseKey(db, claim.memberId, claim.key);
      }
    } catch (error) {
      // The write's own answer still goes out; a retry then finds the claim and waits it out.
      request.log.warn({ err: error }, 'idempotency answer not stored');
    }
    return payload;
  });
}

export function deleteExpiredAnswers(db: Kysely<Database>, now = Date.now()): Promise<void> {
  return deleteAnswersBefore(db, now - ANSWER_RETENTION_MS);
}
