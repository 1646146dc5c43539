import { randomBytes } from 'node:crypto';
import type { CompiledQuery, Kysely } from 'kysely';
import { precompile } from '../../db/precompiled.js';
import type { Database, MemberRow } from '../../db/schema.js';
import type { SessionEndNotice } from '../../event-bus/event-bus.js';
import { hashToken } from './secrets.js';

export const DEVICE_TOKEN_LIFETIME_MS = 30 * 24 * 3_600_000;
/**
 * Last-seen writes are throttled to one a minute per session (analytics needs no finer grain; a
 * short idle limit gets a tenth of itself), so the stored value may be up to that much older than
 * the member's last request. The idle check allows for it: a member whose last request is less
 * than idleMs old is never signed out, and a session ends between idleMs and idleMs + the
 * resolution after its last request.
 */
const LAST_SEEN_RESOLUTION_MS = 60_000;

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/** Told about every session this store ends, so the streams it opened end too. */
export type SessionEndNotifier = (notice: SessionEndNotice) => Promise<void>;

const noNotifier: SessionEndNotifier = () => Promise.resolve();

export interface ActiveSession {
  tokenHash: string;
  member: MemberRow;
  createdAt: number;
  /** The first moment the session may no longer be valid (absolute or idle limit), unless used meanwhile. */
  endsAt: number;
}

function newToken(): string {
  // 256 bits from the OS CSPRNG (ARCHITECTURE.md 4.5).
  return randomBytes(32).toString('base64url');
}

/** Placeholders of the precompiled session lookup: values no real call passes. */
const LOOKUP_PLACEHOLDERS = { tokenHash: '\u0000token-hash', notExpiredAt: -1.5, seenAfter: -2.5, active: -3.5 } as const;

function compileSessionLookup(db: Kysely<Database>) {
  return db
    .selectFrom('sessions')
    .innerJoin('members', 'members.id', 'sessions.member_id')
    .selectAll('members')
    .select(['sessions.last_seen_at', 'sessions.created_at as session_created_at', 'sessions.expires_at as session_expires_at'])
    .where('sessions.token_hash', '=', LOOKUP_PLACEHOLDERS.tokenHash)
    .where('sessions.expires_at', '>', LOOKUP_PLACEHOLDERS.notExpiredAt)
    .where('sessions.last_seen_at', '>', LOOKUP_PLACEHOLDERS.seenAfter)
    .where('members.active', '=', LOOKUP_PLACEHOLDERS.active)
    .compile();
}

type SessionLookupRow = typeof compileSessionLookup extends (db: Kysely<Database>) => CompiledQuery<infer Row> ? Row : never;

/** Sessions and quick-login device tokens; only their sha256 is stored. */
export class SessionStore {
  /** Every signed-in request looks its session up: compiled once, not per request. */
  private readonly lookup: (values: { tokenHash: string; notExpiredAt: number; seenAfter: number; active: number }) => CompiledQuery<SessionLookupRow>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly policy: SessionPolicy,
    private readonly notifyEnded: SessionEndNotifier = noNotifier,
  ) {
    this.lookup = precompile(compileSessionLookup(db), LOOKUP_PLACEHOLDERS);
  }

  private lastSeenResolution(): number {
    return Math.min(LAST_SEEN_RESOLUTION_MS, Math.floor(this.policy.idleMs / 10));
  }

  /** A session last seen at or before this time is idle (see LAST_SEEN_RESOLUTION_MS). */
  private idleCutoff(now: number): number {
    return now - this.policy.idleMs - this.lastSeenResolution();
  }

  /** When a session whose stored last-seen time is `lastSeenAt` becomes idle, if nothing touches it. */
  idleEndsAt(lastSeenAt: number): number {
    return lastSeenAt + this.policy.idleMs + this.lastSeenResolution();
  }

  /** The same store working inside a transaction. */
  within(trx: Kysely<Database>): SessionStore {
    return new SessionStore(trx, this.policy, this.notifyEnded);
  }

  async createSession(memberId: number, meta: { ip: string; userAgent: string | undefined }, now = Date.now()): Promise<string> {
    const token = newToken();
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: hashToken(token),
        member_id: memberId,
        created_at: now,
        last_seen_at: now,
        expires_at: now + this.policy.absoluteMs,
        ip: meta.ip.slice(0, 64),
        user_agent: meta.userAgent?.slice(0, 300) ?? null,
      })
      .execute();
    return token;
  }

  /** One indexed query; the idle and absolute limits are checked in it. */
  async findSession(token: string, now = Date.now(), options: { touch: boolean } = { touch: true }): Promise<ActiveSession | undefined> {
    const tokenHash = hashToken(token);
    const { rows } = await this.db.executeQuery(this.lookup({ tokenHash, notExpiredAt: now, seenAfter: this.idleCutoff(now), active: 1 }));
    const row = rows[0];
    if (row === undefined) return undefined;
    if (options.touch && now - row.last_seen_at >= this.lastSeenResolution()) {
      await this.db.updateTable('sessions').set({ last_seen_at: now }).where('token_hash', '=', tokenHash).execute();
    }
    const { last_seen_at: lastSeenAt, session_created_at: createdAt, session_expires_at: expiresAt, ...member } = row;
    return { tokenHash, member, createdAt, endsAt: Math.min(expiresAt, this.idleEndsAt(lastSeenAt)) };
  }

  async endSession(token: string): Promise<void> {
    const tokenHash = hashToken(token);
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    await this.notifyEnded({ tokenHash });
  }

  async endSessionsOf(memberId: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('member_id', '=', memberId).execute();
    await this.notifyEnded({ memberId });
  }

  async createDeviceToken(memberId: number, now = Date.now()): Promise<string> {
    const token = newToken();
    await this.db
      .insertInto('device_tokens')
      .values({ token_hash: hashToken(token), member_id: memberId, created_at: now, expires_at: now + DEVICE_TOKEN_LIFETIME_MS })
      .execute();
    return token;
  }

  async findDeviceMember(token: string, now = Date.now()): Promise<MemberRow | undefined> {
    return this.db
      .selectFrom('device_tokens')
      .innerJoin('members', 'members.id', 'device_tokens.member_id')
      .selectAll('members')
      .where('device_tokens.token_hash', '=', hashToken(token))
      .where('device_tokens.expires_at', '>', now)
      .where('members.active', '=', 1)
      .executeTakeFirst();
  }

  async revokeDeviceToken(token: string): Promise<void> {
    await this.db.deleteFrom('device_tokens').where('token_hash', '=', hashToken(token)).execute();
  }

  async revokeDeviceTokensOf(memberId: number): Promise<void> {
    await this.db.deleteFrom('device_tokens').where('member_id', '=', memberId).execute();
  }

  async deleteExpired(now = Date.now()): Promise<void> {
    await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', this.idleCutoff(now))]))
      .execute();
    await this.db.deleteFrom('device_tokens').where('expires_at', '<=', now).execute();
  }
}
