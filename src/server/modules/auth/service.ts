import type { Kysely } from 'kysely';
import { AUTH_MESSAGES, type LoginRequest, type QuickLoginRequest, type SetupPinRequest } from '../../../shared/contract/auth.js';
import { nameKey } from '../../../shared/names.js';
import type { Secrets } from '../../config.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { AppError, conflict, tooManyRequests, unauthorized } from '../../errors.js';
import { findMemberByKey, listActiveMemberNames, setFirstPinHash } from '../members/repo.js';
import { audit, type AuditEvent } from './audit.js';
import { LoginLocks, type CountedAttempt } from './lockout.js';
import { hashPin, secretsMatch, verifyDecoy, verifyPin } from './secrets.js';
import type { SessionStore } from './sessions.js';

export interface RequestContext {
  ip: string;
  userAgent: string | undefined;
}

export interface SignedIn {
  kind: 'signed-in';
  member: MemberRow;
  sessionToken: string;
  deviceToken: string;
}

export type LoginOutcome = SignedIn | { kind: 'pin-setup-required'; name: string };

const invalidCredentials = () => unauthorized(AUTH_MESSAGES.invalidCredentials, 'INVALID_CREDENTIALS');

/**
 * The sign-in rules of spec sections 4–5 on the security model of ARCHITECTURE.md 4: an unknown
 * name, a wrong team password and a wrong PIN are indistinguishable (status, message and time), and
 * every failure counts toward the per-name lock.
 */
export class AuthService {
  private readonly locks: LoginLocks;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: SessionStore,
    private readonly secrets: Secrets,
  ) {
    this.locks = new LoginLocks(db);
  }

  async login(input: LoginRequest, context: RequestContext): Promise<LoginOutcome> {
    const key = nameKey(input.name);
    await this.refuseIfLocked(key, input.name, context);
    const member = await this.memberWithTeamPassword(input.password, key);
    if (member === undefined) {
      await verifyDecoy(this.secrets.pinPepper);
      throw await this.failure('sign-in', key, input.name, context, undefined);
    }
    const pin = input.pin ?? '';
    if (member.pin_hash === null) {
      await audit(this.db, { event: 'sign-in', outcome: 'info', actorName: member.full_name, ip: context.ip, detail: 'PIN setup required' });
      return { kind: 'pin-setup-required', name: member.full_name };
    }
    if (pin === '') throw new AppError(400, 'PIN_REQUIRED', AUTH_MESSAGES.pinRequired);
    const counted = await this.countPinAttempt(key, member.full_name, context);
    if (!(await verifyPin(member.pin_hash, pin, this.secrets.pinPepper))) {
      throw await this.failure('sign-in', key, member.full_name, context, member, counted);
    }
    return this.signIn('sign-in', member, key, context);
  }

  async setupPin(input: SetupPinRequest, context: RequestContext): Promise<SignedIn> {
    const key = nameKey(input.name);
    await this.refuseIfLocked(key, input.name, context);
    const member = await this.memberWithTeamPassword(input.password, key);
    if (member === undefined) {
      await verifyDecoy(this.secrets.pinPepper);
      throw await this.failure('pin-setup', key, input.name, context, undefined);
    }
    const pinHash = await hashPin(input.pin, this.secrets.pinPepper);
    // Only a member without a PIN may set one here: replacing a PIN goes through the admin's reset.
    if (!(await setFirstPinHash(this.db, member.id, pinHash))) {
      await audit(this.db, { event: 'pin-setup', outcome: 'failure', actorName: member.full_name, ip: context.ip, detail: 'PIN already set' });
      throw conflict(AUTH_MESSAGES.pinAlreadySet, 'PIN_ALREADY_SET');
    }
    return this.signIn('pin-setup', { ...member, pin_hash: pinHash }, key, context);
  }

  async quickLogin(input: QuickLoginRequest, deviceToken: string | undefined, context: RequestContext): Promise<SignedIn> {
    const key = nameKey(input.name);
    await this.refuseIfLocked(key, input.name, context);
    const member = deviceToken === undefined ? undefined : await this.sessions.findDeviceMember(deviceToken);
    // The device token is bound to one member: it cannot be used to try PINs of other names.
    if (member === undefined || member.name_key !== key) {
      await verifyDecoy(this.secrets.pinPepper);
      throw await this.failure('quick-login', key, input.name, context, undefined);
    }
    if (member.pin_hash === null) throw new AppError(400, 'PIN_NOT_SET', AUTH_MESSAGES.pinNotSet);
    const counted = await this.countPinAttempt(key, member.full_name, context);
    if (!(await verifyPin(member.pin_hash, input.pin, this.secrets.pinPepper))) {
      throw await this.failure('quick-login', key, member.full_name, context, member, counted);
    }
    return this.signIn('quick-login', member, key, context, deviceToken);
  }

  async logout(sessionToken: string | undefined, member: MemberRow | null, context: RequestContext): Promise<void> {
    if (sessionToken !== undefined) await this.sessions.endSession(sessionToken);
    await audit(this.db, { event: 'logout', outcome: 'success', actorName: member?.full_name ?? null, ip: context.ip });
  }

  /** 'Use Different Account': ends the session and forgets this device. */
  async clearSession(sessionToken: string | undefined, deviceToken: string | undefined, member: MemberRow | null, context: RequestContext): Promise<void> {
    if (sessionToken !== undefined) await this.sessions.endSession(sessionToken);
    if (deviceToken !== undefined) await this.sessions.revokeDeviceToken(deviceToken);
    await audit(this.db, { event: 'clear-session', outcome: 'success', actorName: member?.full_name ?? null, ip: context.ip });
  }

  async checkSession(deviceToken: string | undefined): Promise<{ canQuickLogin: boolean; memberName: string | null }> {
    const member = deviceToken === undefined ? undefined : await this.sessions.findDeviceMember(deviceToken);
    if (member?.pin_hash == null) return { canQuickLogin: false, memberName: null };
    return { canQuickLogin: true, memberName: member.full_name };
  }

  async teamMemberNames(member: MemberRow | null, teamPasswordProof: string | undefined): Promise<string[]> {
    if (member === null && (teamPasswordProof === undefined || !secretsMatch(teamPasswordProof, this.secrets.teamPassword))) {
      throw unauthorized('Sign in, or enter the team password first', 'TEAM_PASSWORD_REQUIRED');
    }
    return listActiveMemberNames(this.db);
  }

  /** Same answer whether or not the name exists; at most one pending request per member. */
  async forgotPin(memberName: string, context: RequestContext): Promise<void> {
    const member = await findMemberByKey(this.db, nameKey(memberName));
    if (member !== undefined && member.active === 1) {
      await this.db
        .insertInto('pin_reset_requests')
        .values({ member_id: member.id, member_name: member.full_name, requested_at: Date.now() })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    await audit(this.db, {
      event: 'forgot-pin',
      outcome: member === undefined ? 'failure' : 'success',
      actorName: member?.full_name ?? memberName,
      ip: context.ip,
      detail: member === undefined ? 'unknown name' : undefined,
    });
  }

  private async memberWithTeamPassword(password: string, key: string): Promise<MemberRow | undefined> {
    const passwordOk = secretsMatch(password, this.secrets.teamPassword);
    const member = await findMemberByKey(this.db, key);
    return passwordOk && member?.active === 1 ? member : undefined;
  }

  private async refuseIfLocked(key: string, attemptedName: string, context: RequestContext): Promise<void> {
    const remainingMs = await this.locks.remainingLock(key);
    if (remainingMs > 0) {
      await audit(this.db, { event: 'lockout', outcome: 'locked', actorName: attemptedName, ip: context.ip, detail: 'attempt while locked' });
      throw tooManyRequests(Math.ceil(remainingMs / 1000), 'Too many failed attempts for this name', 'LOCKED_OUT');
    }
  }

  /**
   * Counts a PIN attempt before the PIN is checked: a burst of parallel guesses gets at most
   * LOCK_AFTER_FAILURES of them checked, the rest are refused like attempts on a locked name.
   */
  private async countPinAttempt(key: string, attemptedName: string, context: RequestContext): Promise<CountedAttempt> {
    const counted = await this.locks.countAttempt(key);
    if (!counted.allowed) {
      const remainingMs = await this.locks.remainingLock(key);
      await audit(this.db, { event: 'lockout', outcome: 'locked', actorName: attemptedName, ip: context.ip, detail: 'attempt beyond the limit' });
      throw tooManyRequests(Math.max(1, Math.ceil(remainingMs / 1000)), 'Too many failed attempts for this name', 'LOCKED_OUT');
    }
    return counted;
  }

  private async failure(
    event: AuditEvent,
    key: string,
    attemptedName: string,
    context: RequestContext,
    member: MemberRow | undefined,
    counted?: CountedAttempt,
  ): Promise<AppError> {
    const outcome = counted === undefined ? await this.locks.recordFailure(key) : await this.locks.lockIfDue(key, counted);
    await audit(this.db, { event, outcome: 'failure', actorName: attemptedName, ip: context.ip });
    if (!outcome.locked) return invalidCredentials();
    // A locked name also loses its remembered devices (issue 3: revoked after 5 wrong PINs).
    if (member !== undefined) await this.sessions.revokeDeviceTokensOf(member.id);
    await audit(this.db, { event: 'lockout', outcome: 'locked', actorName: attemptedName, ip: context.ip, detail: `locked until ${new Date(outcome.lockedUntil).toISOString()}` });
    return tooManyRequests(Math.ceil((outcome.lockedUntil - Date.now()) / 1000), 'Too many failed attempts for this name', 'LOCKED_OUT');
  }

  /** One transaction: a sign-in is one commit (one fsync on SQLite) instead of four. */
  private async signIn(event: AuditEvent, member: MemberRow, key: string, context: RequestContext, existingDevice?: string): Promise<SignedIn> {
    return this.db.transaction().execute(async (trx) => {
      const sessions = this.sessions.within(trx);
      await new LoginLocks(trx).clear(key);
      const sessionToken = await sessions.createSession(member.id, context);
      const deviceToken = existingDevice ?? (await sessions.createDeviceToken(member.id));
      await audit(trx, { event, outcome: 'success', actorName: member.full_name, ip: context.ip });
      return { kind: 'signed-in' as const, member, sessionToken, deviceToken };
    });
  }
}
