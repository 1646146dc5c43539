import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { countFailure, deleteDeviceLocksOf, deleteLoginLock, findLockedUntil, lockName } from './repo.js';
import { hashToken } from './secrets.js';

export const LOCK_AFTER_FAILURES = 5;
export const FIRST_LOCK_MS = 15 * 60_000;
/** Doubling stops here: a member who mistyped cannot be kept out of a review day, only slowed. */
export const LONGEST_LOCK_MS = 3_600_000;

export interface CountedAttempt {
  failures: number;
  lockCount: number;
  /** False when the name is locked, or when more attempts than the limit are already counted. */
  allowed: boolean;
}

export interface FailureOutcome {
  /** True when this failure started a lock. */
  locked: boolean;
  lockedUntil: number;
}

/** Device keys cannot collide with name keys: a member's name has no colon. */
const DEVICE_LOCK_PREFIX = 'device:';

/**
 * What a lock is kept on. Wrong PINs from a device the member never signed in on count against the
 * name, and the name's lock holds for every such device; wrong PINs typed on one of the member's
 * remembered devices count against that device alone. So an insider who knows the team password
 * can lock a name for strangers' devices only, never the member's own device.
 */
export function lockKeyOf(nameKey: string, rememberedDeviceToken: string | undefined): string {
  return rememberedDeviceToken === undefined ? nameKey : `${DEVICE_LOCK_PREFIX}${hashToken(rememberedDeviceToken)}`;
}

/**
 * Lockout kept in the database, per name (unknown devices) or per remembered device: 5 consecutive
 * failures lock the key for 15 minutes, each further lock doubles up to an hour, a success or the
 * admin clears it. Shared by every instance and unaffected by restarts.
 */
export class LoginLocks {
  constructor(private readonly db: Kysely<Database>) {}

  /** Milliseconds until the name may try again, or 0. */
  async remainingLock(key: string, now = Date.now()): Promise<number> {
    const lockedUntil = await findLockedUntil(this.db, key);
    return lockedUntil === undefined ? 0 : Math.max(0, lockedUntil - now);
  }

  async recordFailure(key: string, now = Date.now()): Promise<FailureOutcome> {
    return this.lockIfDue(key, await this.countAttempt(key, now), now);
  }

  /**
   * Counts an attempt as failed before its PIN is checked (a success clears the count), so parallel
   * guesses cannot all be checked before the lock falls: the attempt may check its PIN only when
   * `allowed`. One atomic upsert; a name locked meanwhile is not counted further.
   */
  async countAttempt(key: string, now = Date.now()): Promise<CountedAttempt> {
    const row = await countFailure(this.db, key, now);
    return { failures: row.failures, lockCount: row.lock_count, allowed: row.locked_until <= now && row.failures <= LOCK_AFTER_FAILURES };
  }

  /** After a counted attempt failed: locks the name when it was the LOCK_AFTER_FAILURES-th. */
  async lockIfDue(key: string, counted: CountedAttempt, now = Date.now()): Promise<FailureOutcome> {
    if (counted.failures < LOCK_AFTER_FAILURES) return { locked: false, lockedUntil: 0 };

    const duration = Math.min(FIRST_LOCK_MS * 2 ** counted.lockCount, LONGEST_LOCK_MS);
    const lockedUntil = now + duration;
    const locked = await lockName(this.db, key, LOCK_AFTER_FAILURES, lockedUntil, now);
    // A parallel failure may have taken the lock first; either way the name is locked now.
    return { locked, lockedUntil };
  }

  async clear(key: string): Promise<void> {
    await deleteLoginLock(this.db, key);
  }

  /** The admin's unlock: the name's lock and the locks of every remembered device of the member. */
  async clearMember(nameKey: string, memberId: number): Promise<void> {
    await deleteLoginLock(this.db, nameKey);
    await deleteDeviceLocksOf(this.db, memberId, DEVICE_LOCK_PREFIX);
  }
}
