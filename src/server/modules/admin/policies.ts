import type { Kysely } from 'kysely';
import type { Database, MemberRow } from '../../db/schema.js';
import { forbidden, tooManyRequests } from '../../errors.js';
import type { RateLimiter } from '../../http/rate-limit.js';
import { audit } from '../auth/audit.js';
import { sessionKeyOf } from '../auth/guards.js';
import { secretsMatch } from '../auth/secrets.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';
import { nameKey } from '../../../common/names.js';

/**
 * Whether `admin` may hand out the keys to `target`'s account: a PIN reset or a new enrollment link
 * gives whoever resolves it the link that sets the PIN, so it is a takeover when misused. The
 * configured admin (ADMIN_NAME) is the root of trust: only they (or the command line, which does not
 * come through here) may do it for any admin, themselves included; any admin may do it for a member.
 * Answers the refusal's reason, or undefined when allowed.
 */
export function refusalToResetPinOf(admin: Pick<MemberRow, 'name_key'>, target: Pick<MemberRow, 'name_key' | 'role' | 'full_name'>, configuredAdminName: string | undefined): string | undefined {
  const configuredKey = configuredAdminName === undefined ? undefined : nameKey(configuredAdminName);
  const byConfiguredAdmin = isConfiguredAdmin(admin, configuredAdminName);
  if (target.name_key === configuredKey && !byConfiguredAdmin) {
    return `${target.full_name} is the configured admin (ADMIN_NAME): only they, or the command line (npm run admin -- reset-pin), can reset their PIN`;
  }
  if (target.role === 'admin' && !byConfiguredAdmin) {
    return `${target.full_name} is an admin: only the configured admin (ADMIN_NAME), or the command line, can reset an admin's PIN`;
  }
  return undefined;
}

/**
 * Whether `admin` may change another admin's standing: take their admin role away, deactivate or
 * reactivate them, or lift their sign-in lock. An admin made a member is open to any admin's PIN
 * reset (demote, reset, sign in as them, promote back); a reactivation undoes the configured admin's
 * deactivation; an unlock renews the guesses at an admin's PIN. So each needs what resetting an
 * admin's PIN needs: the configured admin (or the command line, which does not come through here).
 * Answers the refusal's reason, or undefined when allowed. Oneself is not another admin (an admin
 * may lift their own lock); demoting or deactivating oneself or the configured admin is refused
 * before this (AdminService), whoever asks.
 */
export function refusalToChangeAdmin(admin: Pick<MemberRow, 'name_key'>, target: Pick<MemberRow, 'name_key' | 'role' | 'full_name'>, configuredAdminName: string | undefined, action: string): string | undefined {
  if (target.role !== 'admin' || target.name_key === admin.name_key || isConfiguredAdmin(admin, configuredAdminName)) return undefined;
  return `${target.full_name} is an admin: only the configured admin (ADMIN_NAME) can ${action} another admin`;
}

function isConfiguredAdmin(admin: Pick<MemberRow, 'name_key'>, configuredAdminName: string | undefined): boolean {
  return configuredAdminName !== undefined && admin.name_key === nameKey(configuredAdminName);
}

/** Thrown inside the counting transaction to roll it back. */
class OverLimit extends Error {
  constructor(readonly resetAt: number) {
    super('over the admin-password limit');
  }
}

/** Wrong admin passwords allowed per session and per address in one window, then 429. */
export const ADMIN_PASSWORD_ATTEMPTS = 5;
export const ADMIN_PASSWORD_WINDOW_MS = 15 * 60_000;

export const ADMIN_PASSWORD_MESSAGES = {
  invalid: 'Invalid admin password',
  throttled: 'Too many wrong admin passwords',
} as const;

/**
 * Every admin action is the admin role (checked by the route guard) plus the admin password in the
 * body. Guesses are throttled per session and per address, not per member: guesses made in one
 * session (a stolen one, say) never lock the same admin out of their own session elsewhere. Every
 * action and every wrong password is audited with actor and address.
 */
export class AdminActions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly limiter: RateLimiter,
    private readonly adminPassword: () => string,
  ) {}

  /** Checks the password, runs the action, and audits it once it succeeded. */
  async run<T>(admin: MemberRow, context: { ip: string }, givenPassword: string, action: string, perform: () => Promise<T>): Promise<T> {
    await this.verifyPassword(admin, context, givenPassword, action);
    const result = await perform();
    await audit(this.db, { event: 'admin-action', outcome: 'success', actorName: admin.full_name, ip: context.ip, detail: action });
    return result;
  }

  /**
   * Each attempt is counted before the comparison, so a burst of parallel guesses gets at most the
   * allowance checked; a right password gives its count back, so a busy admin is never throttled.
   * Both counts move in one transaction, always in the same order: an attempt over either limit
   * rolls both back, and no interleaving of parallel attempts can undo another's count.
   */
  private async verifyPassword(admin: MemberRow, context: { ip: string }, givenPassword: string, action: string): Promise<void> {
    // A member that did not come through the session guard has no session key: it is counted per member.
    const session = sessionKeyOf(admin) ?? `member:${admin.id}`;
    const keys = [`admin-password:session:${session}`, `admin-password:ip:${context.ip}`];
    const now = Date.now();
    const refusedUntil = await this.db
      .transaction()
      .execute(async (trx) => {
        const limiter = this.limiter.within(trx);
        let resetAt = 0;
        for (const key of keys) {
          const count = await limiter.hit(key, ADMIN_PASSWORD_WINDOW_MS, now);
          if (count.hits > ADMIN_PASSWORD_ATTEMPTS) resetAt = Math.max(resetAt, count.resetAt);
        }
        if (resetAt > 0) throw new OverLimit(resetAt);
        return undefined;
      })
      .catch((error: unknown) => {
        if (error instanceof OverLimit) return error.resetAt;
        throw error;
      });
    if (refusedUntil !== undefined) {
      await audit(this.db, { event: 'admin-password', outcome: 'locked', actorName: admin.full_name, ip: context.ip, detail: `${action}: throttled` });
      throw tooManyRequests(Math.max(1, Math.ceil((refusedUntil - now) / 1000)), ADMIN_PASSWORD_MESSAGES.throttled, ERROR_CODES.adminPasswordThrottled);
    }
    if (!secretsMatch(givenPassword, this.adminPassword())) {
      await audit(this.db, { event: 'admin-password', outcome: 'failure', actorName: admin.full_name, ip: context.ip, detail: `${action}: wrong admin password` });
      throw forbidden(ADMIN_PASSWORD_MESSAGES.invalid, ERROR_CODES.invalidAdminPassword);
    }
    await this.limiter.refund(keys, now);
  }
}
