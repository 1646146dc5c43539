import { createHash } from 'node:crypto';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { tooManyRequests } from '../errors.js';

export interface RateLimitRule {
  /** Prefix of the bucket key; rules with one name share one budget (e.g. every sign-in route). */
  name: string;
  max: number;
  windowMs: number;
  key?: (request: FastifyRequest) => string;
  message?: string;
}

/** One counted hit: its bucket and the end of the window it was counted in (what a refund needs). */
export interface Charge {
  key: string;
  resetAt: number;
}

/**
 * Fixed-window counters kept in the database, so limits hold across restarts and across every
 * instance sharing a PostgreSQL database. One atomic upsert per hit.
 */
export class RateLimiter {
  constructor(private readonly db: Kysely<Database>) {}

  /** The same limiter counting inside a transaction: the hit commits with the work it allows. */
  within(trx: Kysely<Database>): RateLimiter {
    return new RateLimiter(trx);
  }

  async hit(key: string, windowMs: number, now = Date.now()): Promise<{ hits: number; resetAt: number }> {
    const resetAt = now + windowMs;
    const row = await this.db
      .insertInto('rate_limit_buckets')
      .values({ key: storableKey(key), hits: 1, reset_at: resetAt })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          hits: sql<number>`case when rate_limit_buckets.reset_at <= cast(${now} as bigint) then 1 else rate_limit_buckets.hits + 1 end`,
          reset_at: sql<number>`case when rate_limit_buckets.reset_at <= cast(${now} as bigint) then cast(${resetAt} as bigint) else rate_limit_buckets.reset_at end`,
        }),
      )
      .returning(['hits', 'reset_at'])
      .executeTakeFirstOrThrow();
    return { hits: row.hits, resetAt: row.reset_at };
  }

  /** Gives back one hit of each key's current window (an attempt that turned out not to count). */
  async refund(keys: readonly string[], now = Date.now()): Promise<void> {
    await this.db
      .updateTable('rate_limit_buckets')
      .set({ hits: sql<number>`hits - 1` })
      .where('key', 'in', keys.map(storableKey))
      .where('hits', '>', 0)
      .where('reset_at', '>', now)
      .execute();
  }

  async deleteExpired(now = Date.now()): Promise<void> {
    await this.db.deleteFrom('rate_limit_buckets').where('reset_at', '<=', now).execute();
  }

  /**
   * Gives back the hit `charge` counted, in the window it counted it in: one conditional update, so
   * concurrent refunds on any instance never give back more than was charged, nor into a later window.
   */
  async refundCharge(charge: Charge): Promise<void> {
    await this.db
      .updateTable('rate_limit_buckets')
      .set({ hits: sql<number>`hits - 1` })
      .where('key', '=', storableKey(charge.key))
      .where('reset_at', '=', charge.resetAt)
      .where('hits', '>', 0)
      .execute();
  }

  /** Counts one request against the rule; throws 429 with Retry-After once the client exceeds it. */
  async enforce(rule: RateLimitRule, request: FastifyRequest): Promise<Charge> {
    return this.charge(rule, rule.key === undefined ? request.ip : rule.key(request));
  }

  /** Counts one use by `key` (an address, a member) against the rule; 429 beyond it. */
  async charge(rule: Omit<RateLimitRule, 'key'>, key: string): Promise<Charge> {
    const now = Date.now();
    const bucket = `${rule.name}:${key}`;
    const { hits, resetAt } = await this.hit(bucket, rule.windowMs, now);
    if (hits > rule.max) {
      throw tooManyRequests(Math.max(1, Math.ceil((resetAt - now) / 1000)), rule.message);
    }
    return { key: bucket, resetAt };
  }

  /** The same, as a route hook. */
  hook(rule: RateLimitRule): onRequestAsyncHookHandler {
    return async (request) => {
      await this.enforce(rule, request);
    };
  }
}

/** A limit per signed-in member (the route's access rule has already required one). */
export function perMemberRule(name: string, maxPerMinute: number, message: string): RateLimitRule {
  return { name, max: maxPerMinute, windowMs: 60_000, message, key: (request) => `member:${request.member?.id ?? request.ip}` };
}

/** A member's AI calls of one kind (summaries, generations…): each kind has its own budget. */
export function aiCallRule(name: string, maxPerMinute: number): RateLimitRule {
  return perMemberRule(name, maxPerMinute, 'Too many AI requests from you');
}

const MAX_KEY_LENGTH = 200;

/**
 * The key column holds 200 characters, but a key embeds client text (an X-Forwarded-For address
 * behind a trusted proxy can be anything); a longer key is hashed so it stays distinct and storable.
 */
function storableKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}
