import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, MemberRow } from '../../db/schema.js';
import type { SessionEndNotice } from '../../event-bus/event-bus.js';
import {
  deleteDeviceToken,
  deleteDeviceTokensOf,
  deleteExpiredDeviceTokens,
  deleteExpiredSessions,
  deleteSession,
  deleteSessionsByHash,
  deleteSessionsOf,
  findDeviceMember,
  insertDeviceToken,
  insertSession,
  listSessionHashesOf,
  sessionLookup,
  touchSession,
  type SessionLookupRow,
} from './repo.js';
import { hashToken } from './secrets.js';
import { SessionCache } from './session-cache.js';

export const DEVICE_TOKEN_LIFETIME_MS = 30 * 24 * 3_600_000;
/**
 * Sessions one member may hold at once: more devices than anyone uses, few enough that sign-ins in
 * a loop cannot grow the table or the member's live streams without end.
 */
export const MAX_SESSIONS_PER_MEMBER = 10;
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
  // 256 bits from the OS CSPRNG: unguessable, and only their hash is stored.
  return randomBytes(32).toString('base64url');
}

/** Sessions and quick-login device tokens; only their sha256 is stored. */
export class SessionStore {
  /** Every signed-in request looks its session up: compiled once, not per request. */
  private readonly lookup: ReturnType<typeof sessionLookup>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly policy: SessionPolicy,
    private readonly notifyEnded: SessionEndNotifier = noNotifier,
    /** Recent lookups of this instance; the owner drops entries as sessions end (see app.ts). */
    private readonly cache: SessionCache = new SessionCache(0),
  ) {
    this.lookup = sessionLookup(db);
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

  /** The same store working inside a transaction (without the cache: nothing uncommitted is kept). */
  within(trx: Kysely<Database>): SessionStore {
    return new SessionStore(trx, this.policy, this.notifyEnded);
  }

  async createSession(memberId: number, meta: { ip: string; userAgent: string | undefined }, now = Date.now()): Promise<string> {
    const token = newToken();
    await insertSession(this.db, { tokenHash: hashToken(token), memberId, now, expiresAt: now + this.policy.absoluteMs, ip: meta.ip, userAgent: meta.userAgent });
    return token;
  }

  /**
   * One indexed query, with the idle and absolute limits checked in it; a session looked up within
   * the last second answers from the cache, checked against the same limits.
   */
  async findSession(token: string, now = Date.now(), options: { touch: boolean } = { touch: true }): Promise<ActiveSession | undefined> {
    const tokenHash = hashToken(token);
    const row = this.cachedRow(tokenHash, now) ?? (await this.lookUp(tokenHash, now));
    if (row === undefined) return undefined;
    if (options.touch && now - row.last_seen_at >= this.lastSeenResolution()) {
      // Marked first, so the requests arriving while the write is under way do not write it too.
      this.cache.touched(tokenHash, now);
      await touchSession(this.db, tokenHash, now);
    }
    const { last_seen_at: lastSeenAt, session_created_at: createdAt, session_expires_at: expiresAt, ...member } = row;
    return { tokenHash, member, createdAt, endsAt: Math.min(expiresAt, this.idleEndsAt(lastSeenAt)) };
  }

  /** A cached row still within both limits; one past either is read again (another instance may have seen the member since). */
  private cachedRow(tokenHash: string, now: number): SessionLookupRow | undefined {
    const row = this.cache.get(tokenHash, now);
    if (row === undefined || row.session_expires_at <= now || row.last_seen_at <= this.idleCutoff(now)) return undefined;
    return row;
  }

  private lookUp(tokenHash: string, now: number): Promise<SessionLookupRow | undefined> {
    return this.cache.lookUp(tokenHash, now, () => this.lookup({ tokenHash, notExpiredAt: now, seenAfter: this.idleCutoff(now) }));
  }

  /**
   * Whether a session ended. A token of no session announces nothing: whoever ended it announced
   * it, and a caller without a session (anyone) makes no other instance do any work.
   */
  async endSession(token: string): Promise<boolean> {
    const tokenHash = hashToken(token);
    if (!(await deleteSession(this.db, tokenHash))) return false;
    await this.notifyEnded({ tokenHash });
    return true;
  }

  /**
   * Ends the member's oldest sessions beyond MAX_SESSIONS_PER_MEMBER, never `newestToken` (the one a
   * sign-in just started); their live streams end with them through the notice every other session end sends.
   */
  async endSessionsBeyondLimit(memberId: number, newestToken: string): Promise<void> {
    const newest = hashToken(newestToken);
    const older = (await listSessionHashesOf(this.db, memberId)).filter((tokenHash) => tokenHash !== newest);
    const beyond = older.slice(MAX_SESSIONS_PER_MEMBER - 1);
    if (beyond.length === 0) return;
    await deleteSessionsByHash(this.db, beyond);
    for (const tokenHash of beyond) await this.notifyEnded({ tokenHash });
  }

  async endSessionsOf(memberId: number): Promise<void> {
    await deleteSessionsOf(this.db, memberId);
    await this.notifyEnded({ memberId });
  }

  async createDeviceToken(memberId: number, now = Date.now()): Promise<string> {
    const token = newToken();
    await insertDeviceToken(this.db, { tokenHash: hashToken(token), memberId, now, expiresAt: now + DEVICE_TOKEN_LIFETIME_MS });
    return token;
  }

  async findDeviceMember(token: string, now = Date.now()): Promise<MemberRow | undefined> {
    return findDeviceMember(this.db, hashToken(token), now);
  }

  /** Whether the device was remembered. */
  async revokeDeviceToken(token: string): Promise<boolean> {
    return deleteDeviceToken(this.db, hashToken(token));
  }

  async revokeDeviceTokensOf(memberId: number): Promise<void> {
    await deleteDeviceTokensOf(this.db, memberId);
  }

  async deleteExpired(now = Date.now()): Promise<void> {
    await deleteExpiredSessions(this.db, now, this.idleCutoff(now));
    await deleteExpiredDeviceTokens(this.db, now);
  }
}
