import type { EventBus, SessionEndNotice } from '../../event-bus/event-bus.js';
import type { SessionLookupRow } from './repo.js';

/**
 * How long a looked-up session may answer from memory. It bounds how late an instance notices a
 * revocation it was never told of (the command line on SQLite, a lost notification): at most this
 * long. Revocations it is told of (logout, PIN reset, role change, deactivation) drop the entry at
 * once, on every instance.
 */
export const SESSION_CACHE_TTL_MS = 1000;

/** Far above a team's open sessions; the oldest entry goes first when it is reached. */
const MAX_ENTRIES = 10_000;

interface Entry {
  row: SessionLookupRow;
  cachedAt: number;
}

/**
 * Recent session lookups of this instance, so a member's requests within a second cost one
 * database round trip instead of one each (on PostgreSQL that round trip is most of a small read).
 * Keyed by the token's hash, like the table; never holds a token.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, { generation: number; row: Promise<SessionLookupRow | undefined> }>();
  /** Bumped by every drop: a lookup that started before one must not store what it read. */
  private generation = 0;

  /**
   * @param ttlMs 0 turns the cache off (every lookup reads the database).
   * @param trusted false while revocations may go unheard (the event bus lost its connection): then
   *   nothing is served from memory.
   */
  constructor(
    private readonly ttlMs: number = SESSION_CACHE_TTL_MS,
    private readonly trusted: () => boolean = () => true,
  ) {}

  get(tokenHash: string, now: number): SessionLookupRow | undefined {
    const entry = this.entries.get(tokenHash);
    if (entry === undefined) return undefined;
    if (!this.trusted() || now - entry.cachedAt >= this.ttlMs || now < entry.cachedAt) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.row;
  }

  /**
   * Reads a session through `load` and keeps what it finds. Concurrent lookups of one token share
   * one read: when an entry expires under load, its member's many requests cost one query, not one
   * each. A read that started before a session ended is neither kept nor shared after it.
   */
  lookUp(tokenHash: string, now: number, load: () => Promise<SessionLookupRow | undefined>): Promise<SessionLookupRow | undefined> {
    const pending = this.inFlight.get(tokenHash);
    if (pending !== undefined && pending.generation === this.generation) return pending.row;
    const generation = this.generation;
    const row = load().then((found) => {
      if (found !== undefined) this.store(tokenHash, found, now, generation);
      return found;
    });
    if (this.ttlMs > 0) {
      this.inFlight.set(tokenHash, { generation, row });
      const settled = () => {
        if (this.inFlight.get(tokenHash)?.row === row) this.inFlight.delete(tokenHash);
      };
      row.then(settled, settled);
    }
    return row;
  }

  private store(tokenHash: string, row: SessionLookupRow, now: number, lookupGeneration: number): void {
    if (this.ttlMs <= 0 || lookupGeneration !== this.generation || !this.trusted()) return;
    this.entries.delete(tokenHash);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(tokenHash, { row, cachedAt: now });
  }

  /** The stored last-seen time was written: later hits must not write it again within the minute. */
  touched(tokenHash: string, lastSeenAt: number): void {
    const entry = this.entries.get(tokenHash);
    if (entry !== undefined) entry.row = { ...entry.row, last_seen_at: lastSeenAt };
  }

  /** Sessions that ended: their entries go at once. */
  drop(notice: SessionEndNotice): void {
    this.generation += 1;
    if ('tokenHash' in notice) {
      this.entries.delete(notice.tokenHash);
      return;
    }
    for (const [tokenHash, entry] of this.entries) {
      if (entry.row.id === notice.memberId) this.entries.delete(tokenHash);
    }
  }

  /** A member's row changed (role, name, activity) or notices may have been missed: forget everything. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * A cache that hears what ends sessions on every instance: session-end notices drop their
 * entries, a member change (a role, a name, a deactivation) and a gap in the events drop all, and
 * nothing is served while the bus may be missing notices.
 */
export function sessionCacheFollowing(events: EventBus, ttlMs: number): SessionCache {
  const cache = new SessionCache(ttlMs, () => events.reliable);
  events.onSessionsEnded((notice) => {
    cache.drop(notice);
  });
  events.onChange((event) => {
    if (event.type === 'members.changed') cache.clear();
  });
  events.onGap(() => {
    cache.clear();
  });
  return cache;
}
