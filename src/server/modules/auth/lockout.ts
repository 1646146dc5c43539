import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

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

/**
 * Per-name lockout kept in the database (ARCHITECTURE.md 4.4): 5 consecutive failures lock the name
 * for 15 minutes, each further lock doubles up to an hour, a success or the admin clears it. Shared by every instance and
 * unaffected by restarts.
 */
export class LoginLocks {
  constructor(private readonly db: Kysely<Database>) {}

  /** Milliseconds until the name may try again, or 0. */
  async remainingLock(key: string, now = Date.now()): Promise<number> {
    const row = await this.db.selectFrom('login_locks').select('locked_until').where('name_key', '=', key).executeTakeFirst();
    return row === undefined ? 0 : Math.max(0, row.locked_until - now);
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
    const row = await this.db
      .insertInto('login_locks')
      .values({ name_key: key, failures: 1, updated_at: now })
      .onConflict((oc) =>
        oc.column('name_key').doUpdateSet({
          failures: sql<number>`case when login_locks.locked_until > cast(${now} as bigint) then login_locks.failures else login_locks.failures + 1 end`,
          updated_at: now,
        }),
      )
      .returning(['failures', 'lock_count', 'locked_until'])
      .executeTakeFirstOrThrow();
    return { failures: row.failures, lockCount: row.lock_count, allowed: row.locked_until <= now && row.failures <= LOCK_AFTER_FAILURES };
  }

  /** After a counted attempt failed: locks the name when it was the LOCK_AFTER_FAILURES-th. */
  async lockIfDue(key: string, counted: CountedAttempt, now = Date.now()): Promise<FailureOutcome> {
    if (counted.failures < LOCK_AFTER_FAILURES) return { locked: false, lockedUntil: 0 };

    const duration = Math.min(FIRST_LOCK_MS * 2 ** counted.lockCount, LONGEST_LOCK_MS);
    const lockedUntil = now + duration;
    const updated = await this.db
      .updateTable('login_locks')
      .set({ failures: 0, lock_count: sql<number>`lock_count + 1`, locked_until: lockedUntil, updated_at: now })
      .where('name_key', '=', key)
      .where('failures', '>=', LOCK_AFTER_FAILURES)
      .executeTakeFirst();
    // A parallel failure may have taken the lock first; either way the name is locked now.
    return { locked: updated.numUpdatedRows > 0n, lockedUntil };
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('login_locks').where('name_key', '=', key).execute();
  }
}
