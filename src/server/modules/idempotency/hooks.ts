import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_REPLAYED_HEADER } from '../../../common/api/idempotency.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';
import type { Database } from '../../db/schema.js';
import { AppError, badRequest } from '../../errors.js';
import { joinedWorkOf } from '../../http/joined-work.js';
import type { App } from '../../http/types.js';
import { claimKey, deleteAnswersBefore, findAnswer, reclaimStaleKey, releaseKey, storeAnswer } from './repo.js';

/** A retry comes within seconds (the client retries once, at once); an hour covers a slow proxy's own retries. */
export const ANSWER_RETENTION_MS = 3_600_000;
/** A claim this old without an answer belongs to a request whose process died: a retry may run it. */
const STALE_CLAIM_MS = 60_000;
/** Answers are a comment, a vote count, a member: small. A larger one is not kept (the retry runs again). */
const MAX_STORED_BODY_CHARS = 64 * 1024;
/**
 * Keys one member may have stored by one instance per retention window. A member's page sends one
 * with every write, page views (at most 20 a minute) included: well under this. Past it, the write
 * still runs but its key is not kept, so one member cannot fill the table with cheap writes.
 */
export const KEYS_PER_MEMBER_PER_WINDOW = 2_000;

/**
 * How many keys each member has had stored in the current window, in this instance's memory: a
 * count per member at most, dropped as windows end. Each instance bounds its own share.
 */
export class KeyBudget {
  private readonly used = new Map<number, { since: number; count: number }>();

  constructor(
    private readonly perWindow: number = KEYS_PER_MEMBER_PER_WINDOW,
    private readonly windowMs: number = ANSWER_RETENTION_MS,
  ) {}

  /** Whether `memberId` may store one more key now; counts it if so. */
  take(memberId: number, now: number): boolean {
    const current = this.used.get(memberId);
    if (current === undefined || now - current.since >= this.windowMs || now < current.since) {
      if (this.used.size >= 10_000) this.dropEnded(now);
      this.used.set(memberId, { since: now, count: 1 });
      return this.perWindow >= 1;
    }
    if (current.count >= this.perWindow) return false;
    current.count += 1;
    return true;
  }

  private dropEnded(now: number): void {
    for (const [memberId, window] of this.used) if (now - window.since >= this.windowMs) this.used.delete(memberId);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this request claimed; its answer is stored when it is sent. */
    idempotencyClaim: { memberId: number; key: string } | null;
  }
}

/**
 * Bodies carry credentials (an admin action's admin password) and answers may too (an enrollment
 * link): what is stored must reveal neither to someone who reads the table or a backup of it. The
 * request is kept as an HMAC and the answer encrypted, both under keys derived from the server's
 * pepper, which is in neither.
 */
class AnswerSealer {
  private readonly hashKey: Buffer;
  private readonly answerKey: Buffer;

  constructor(secret: string) {
    this.hashKey = createHmac('sha256', secret).update('idempotency request hash').digest();
    this.answerKey = createHmac('sha256', secret).update('idempotency answer').digest();
  }

  /** Method, route and what the request carried: the same key sent with anything else is a client bug. */
  requestHash(request: FastifyRequest): string {
    return createHmac('sha256', this.hashKey)
      .update(JSON.stringify([request.method, request.routeOptions.url ?? '', request.params ?? null, request.query ?? null, request.body ?? null]))
      .digest('hex');
  }

  seal(text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.answerKey, iv);
    const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  }

  /** Undefined when it does not open: written under another pepper (rotated since). */
  open(stored: string): string | undefined {
    try {
      const bytes = Buffer.from(stored, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', this.answerKey, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

/**
 * Only a write that was done is kept: a refusal (4xx) changed nothing, so a retry may as well run
 * again, and keeping refusals would let anyone fill the table with cheap failing calls.
 */
function isDoneAnswer(statusCode: number): boolean {
  return statusCode >= 200 && statusCode < 300;
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
 * running is told to wait; the same key with another request is refused. Any answer but a 2xx
 * releases the key, so the retry runs again (nothing was done).
 *
 * The frequent writes (comments, votes) store the key with their answer inside their own
 * transaction (`joinsWrite`): the answer commits with the write, even if the process dies before it
 * is sent, and the key costs no commit of its own.
 */
export function registerIdempotency(app: App, db: Kysely<Database>, secret: string, budget: KeyBudget = new KeyBudget()) {
  const sealer = new AnswerSealer(secret);
  app.decorateRequest('idempotencyClaim', null);

  const inFlight = () =>
    new AppError(409, ERROR_CODES.idempotencyKeyInFlight, 'The first request with this Idempotency-Key is still being answered; try again in a second', { 'retry-after': '1' });

  app.addHook('preHandler', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.member === null) return undefined;
    // Sign-in calls answer with cookies, which a replay could not give again; they are public routes.
    if ((request.routeOptions.config.access ?? 'member') === 'public') return undefined;
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (header === undefined) return undefined;
    const key = Array.isArray(header) ? undefined : header;
    if (key === undefined || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw badRequest('Idempotency-Key must be 8 to 128 letters, digits, dots, dashes, underscores or colons');
    }
    const memberId = request.member.id;
    const hash = sealer.requestHash(request);
    const now = Date.now();
    // A write whose service takes joined work stores the key with its answer in its own transaction:
    // no claim and no answer of their own to commit. Any other write claims the key first.
    const joined = request.routeOptions.config.joinsWrite === true;
    const claim = async (): Promise<void> => {
      // Past its budget a member's write runs as if it had no key: answered, not refused.
      if (!budget.take(memberId, now)) return;
      if (joined) {
        joinedWorkOf(request).add(async (trx, answer) => {
          const text = answer.text();
          if (text.length > MAX_STORED_BODY_CHARS) return;
          // Taken since this request looked: a retry that raced the first. Rolled back, it changed nothing.
          if (!(await claimKey(trx, memberId, key, hash, now, { statusCode: answer.statusCode, body: sealer.seal(text) }))) throw inFlight();
        });
      } else if (await claimKey(db, memberId, key, hash, now)) {
        request.idempotencyClaim = { memberId, key };
      }
    };
    if (!joined && budget.take(memberId, now) && (await claimKey(db, memberId, key, hash, now))) {
      request.idempotencyClaim = { memberId, key };
      return undefined;
    }
    const stored = await findAnswer(db, memberId, key);
    if (stored === undefined) {
      // New (a joined write), or released (a 5xx) between the two queries: this request may run.
      await claim();
      return undefined;
    }
    if (stored.requestHash !== hash) {
      throw new AppError(422, ERROR_CODES.idempotencyKeyReused, 'This Idempotency-Key was already used for a different request');
    }
    if (stored.statusCode !== null && stored.body !== null) {
      const body = sealer.open(stored.body);
      if (body !== undefined) return replay(reply, stored.statusCode, body);
      // Sealed under a pepper since rotated: unreadable, so the retry runs as if the key were new.
      await releaseKey(db, memberId, key);
      await claim();
      return undefined;
    }
    if (await reclaimStaleKey(db, memberId, key, now - STALE_CLAIM_MS, now)) {
      request.idempotencyClaim = { memberId, key };
      return undefined;
    }
    throw inFlight();
  });

  // Added before any route, so it sees the serialized JSON text before compression turns it into bytes.
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (claim === null) return payload;
    request.idempotencyClaim = null;
    const text = answerText(payload);
    try {
      if (isDoneAnswer(reply.statusCode) && text !== undefined && text.length <= MAX_STORED_BODY_CHARS) {
        await storeAnswer(db, claim.memberId, claim.key, reply.statusCode, sealer.seal(text));
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
