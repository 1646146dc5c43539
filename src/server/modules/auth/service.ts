import type { Kysely } from 'kysely';
import { type EnrollmentStatus, type LoginRequest, type QuickLoginRequest, type SetupPinRequest } from '../../../common/contract/auth.js';
import { AUTH_MESSAGES } from '../../../common/api/auth.js';
import { nameKey } from '../../../common/names.js';
import type { Secrets } from '../../config.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { AppError, conflict, forbidden, tooManyRequests, unauthorized } from '../../errors.js';
import { deleteEnrollmentTokensOf } from '../enrollment/repo.js';
import { consumeEnrollment, memberOfEnrollment } from '../enrollment/service.js';
import { findMemberByKey, insertPinResetRequest, listActiveMemberNames, recordSignIn, setFirstPinHash } from '../members/repo.js';
import { audit, type AuditEvent } from './audit.js';
import { LoginLocks, type CountedAttempt } from './lockout.js';
import { hashPin, secretsMatch, verifyDecoy, verifyPin } from './secrets.js';
import type { SessionStore } from './sessions.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';

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

const invalidCredentials = () => unauthorized(AUTH_MESSAGES.invalidCredentials, ERROR_CODES.invalidCredentials);
const pinRequired = () => new AppError(400, ERROR_CODES.pinRequired, AUTH_MESSAGES.pinRequired);
const lockedOut = (retryAfterSeconds: number) => tooManyRequests(Math.max(1, retryAfterSeconds), 'Too many failed attempts for this name', ERROR_CODES.lockedOut);

/**
 * The sign-in rules of the security model: an unknown name, a wrong team password and a wrong PIN
 * are indistinguishable (status, message and time). A failure counts toward a name's lock only when
 * the request proved the team password (or holds that member's device token): a stranger can spend
 * the per-address limit, never another member's attempts. Creating a PIN needs the member's
 * enrollment link; without it, a member who has no PIN looks exactly like one who has.
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

  async login(input: LoginRequest, enrollmentToken: string | undefined, context: RequestContext): Promise<LoginOutcome> {
    const key = nameKey(input.name);
    if (!this.teamPasswordMatches(input.password)) throw await this.strangerFailure('sign-in', input.name, context);
    await this.refuseIfLocked(key, input.name, context);
    const member = await this.activeMember(key);
    const pin = input.pin ?? '';
    if (member === undefined) {
      await verifyDecoy(this.secrets.pinPepper);
      throw await this.failure('sign-in', key, input.name, context, undefined);
    }
    if (member.pin_hash === null) {
      if ((await memberOfEnrollment(this.db, enrollmentToken))?.id === member.id) {
        await audit(this.db, { event: 'sign-in', outcome: 'info', actorName: member.full_name, ip: context.ip, detail: 'PIN setup required' });
        return { kind: 'pin-setup-required', name: member.full_name };
      }
      // Without the member's enrollment cookie, "no PIN yet" answers exactly as a wrong PIN does.
      if (pin === '') throw pinRequired();
      const counted = await this.countPinAttempt(key, member.full_name, context);
      await verifyDecoy(this.secrets.pinPepper);
      throw await this.failure('sign-in', key, member.full_name, context, member, counted);
    }
    if (pin === '') throw pinRequired();
    const counted = await this.countPinAttempt(key, member.full_name, context);
    if (!(await verifyPin(member.pin_hash, pin, this.secrets.pinPepper))) {
      throw await this.failure('sign-in', key, member.full_name, context, member, counted);
    }
    return this.signIn('sign-in', member, key, context);
  }

  /**
   * Only the member an enrollment link was issued to, in the browser that opened it, may create a
   * PIN; the link works once. Nothing here is a PIN guess, so nothing counts toward a name's lock.
   */
  async setupPin(input: SetupPinRequest, enrollmentToken: string | undefined, context: RequestContext): Promise<SignedIn> {
    const key = nameKey(input.name);
    if (!this.teamPasswordMatches(input.password)) throw await this.strangerFailure('pin-setup', input.name, context);
    await this.refuseIfLocked(key, input.name, context);
    const enrolled = await memberOfEnrollment(this.db, enrollmentToken);
    if (enrollmentToken === undefined || enrolled === undefined || enrolled.name_key !== key) {
      await audit(this.db, { event: 'pin-setup', outcome: 'failure', actorName: input.name, ip: context.ip, detail: 'no enrollment link for this name' });
      throw forbidden(AUTH_MESSAGES.enrollmentRequired, ERROR_CODES.enrollmentRequired);
    }
    const pinHash = await hashPin(input.pin, this.secrets.pinPepper);
    const created = await this.db.transaction().execute(async (trx) => {
      // Used up first: of two parallel requests with one link, only one sets the PIN.
      if (!(await consumeEnrollment(trx, enrollmentToken, enrolled.id))) return 'link-used' as const;
      return (await setFirstPinHash(trx, enrolled.id, pinHash)) ? ('created' as const) : ('pin-exists' as const);
    });
    if (created === 'link-used') throw forbidden(AUTH_MESSAGES.enrollmentRequired, ERROR_CODES.enrollmentRequired);
    if (created === 'pin-exists') {
      await audit(this.db, { event: 'pin-setup', outcome: 'failure', actorName: enrolled.full_name, ip: context.ip, detail: 'PIN already set' });
      throw conflict(AUTH_MESSAGES.pinAlreadySet, ERROR_CODES.pinAlreadySet);
    }
    return this.signIn('pin-setup', { ...enrolled, pin_hash: pinHash }, key, context);
  }

  async quickLogin(input: QuickLoginRequest, deviceToken: string | undefined, context: RequestContext): Promise<SignedIn> {
    const key = nameKey(input.name);
    const member = deviceToken === undefined ? undefined : await this.sessions.findDeviceMember(deviceToken);
    // The device token is bound to one member: without it nobody may try PINs for this name.
    if (member === undefined || member.name_key !== key) throw await this.strangerFailure('quick-login', input.name, context);
    await this.refuseIfLocked(key, input.name, context);
    if (member.pin_hash === null) throw new AppError(400, ERROR_CODES.pinNotSet, AUTH_MESSAGES.pinNotSet);
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

  /** What the browser's enrollment cookie allows; the link's holder learns only their own name. */
  async enrollmentStatus(enrollmentToken: string | undefined): Promise<EnrollmentStatus> {
    if (enrollmentToken === undefined) return { state: 'none' };
    const member = await memberOfEnrollment(this.db, enrollmentToken);
    if (member === undefined || member.pin_hash !== null) return { state: 'invalid' };
    return { state: 'valid', memberName: member.full_name };
  }

  async teamMemberNames(member: MemberRow | null, teamPasswordProof: string | undefined): Promise<string[]> {
    if (member === null && (teamPasswordProof === undefined || !this.teamPasswordMatches(teamPasswordProof))) {
      throw unauthorized('Sign in, or enter the team password first', ERROR_CODES.teamPasswordRequired);
    }
    return listActiveMemberNames(this.db);
  }

  /** Same answer whether or not the name exists; at most one pending request per member. */
  async forgotPin(memberName: string, context: RequestContext): Promise<void> {
    const member = await findMemberByKey(this.db, nameKey(memberName));
    if (member !== undefined && member.active === 1) {
      await insertPinResetRequest(this.db, member);
    }
    await audit(this.db, {
      event: 'forgot-pin',
      outcome: member === undefined ? 'failure' : 'success',
      actorName: member?.full_name ?? memberName,
      ip: context.ip,
      detail: member === undefined ? 'unknown name' : undefined,
    });
  }

  private teamPasswordMatches(password: string): boolean {
    return secretsMatch(password, this.secrets.teamPassword);
  }

  private async activeMember(key: string): Promise<MemberRow | undefined> {
    const member = await findMemberByKey(this.db, key);
    return member?.active === 1 ? member : undefined;
  }

  /**
   * A request that proved nothing (wrong team password, no device token of the member): the same
   * answer and time as every other failure, limited per address by the route, never counted against a name.
   */
  private async strangerFailure(event: AuditEvent, attemptedName: string, context: RequestContext): Promise<AppError> {
    await verifyDecoy(this.secrets.pinPepper);
    await audit(this.db, { event, outcome: 'failure', actorName: attemptedName, ip: context.ip, detail: 'team password or device not proven' });
    return invalidCredentials();
  }

  private async refuseIfLocked(key: string, attemptedName: string, context: RequestContext): Promise<void> {
    const remainingMs = await this.locks.remainingLock(key);
    if (remainingMs > 0) {
      await audit(this.db, { event: 'lockout', outcome: 'locked', actorName: attemptedName, ip: context.ip, detail: 'attempt while locked' });
      throw lockedOut(Math.ceil(remainingMs / 1000));
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
      throw lockedOut(Math.ceil(remainingMs / 1000));
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
    // A locked name also loses its remembered devices.
    if (member !== undefined) await this.sessions.revokeDeviceTokensOf(member.id);
    await audit(this.db, { event: 'lockout', outcome: 'locked', actorName: attemptedName, ip: context.ip, detail: `locked until ${new Date(outcome.lockedUntil).toISOString()}` });
    return lockedOut(Math.ceil((outcome.lockedUntil - Date.now()) / 1000));
  }

  /** One transaction: a sign-in is one commit (one fsync on SQLite). A sign-in revokes any enrollment link. */
  private async signIn(event: AuditEvent, member: MemberRow, key: string, context: RequestContext, existingDevice?: string): Promise<SignedIn> {
    return this.db.transaction().execute(async (trx) => {
      const sessions = this.sessions.within(trx);
      await new LoginLocks(trx).clear(key);
      await deleteEnrollmentTokensOf(trx, member.id);
      await recordSignIn(trx, member.id, Date.now());
      const sessionToken = await sessions.createSession(member.id, context);
      const deviceToken = existingDevice ?? (await sessions.createDeviceToken(member.id));
      await audit(trx, { event, outcome: 'success', actorName: member.full_name, ip: context.ip });
      return { kind: 'signed-in' as const, member, sessionToken, deviceToken };
    });
  }
}
