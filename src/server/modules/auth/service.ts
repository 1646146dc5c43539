import type { Kysely } from 'kysely';
import { type EnrollmentStatus, type LoginRequest, type QuickLoginRequest, type SetupPinRequest } from '../../../common/contract/auth.js';
import { AUTH_MESSAGES } from '../../../common/api/auth.js';
import { nameKey } from '../../../common/names.js';
import type { Secrets } from '../../config.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { AppError, conflict, forbidden, tooManyRequests, unauthorized } from '../../errors.js';
import { deleteEnrollmentTokensOf } from '../enrollment/repo.js';
import { consumeEnrollment, memberOfEnrollment } from '../enrollment/service.js';
import { findMemberById, findMemberByKey, insertPinResetRequest, listActiveMemberNames, recordSignIn, setFirstPinHash } from '../members/repo.js';
import { audit, type AuditEvent } from './audit.js';
import { LoginLocks, lockKeyOf, type CountedAttempt } from './lockout.js';
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
 * the request proved the team password: a stranger can spend the per-address limit, never another
 * member's attempts. The name's lock holds for unknown devices only; wrong PINs on one of the
 * member's remembered devices lock that device alone. Creating a PIN needs the member's
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

  async login(input: LoginRequest, enrollmentToken: string | undefined, deviceToken: string | undefined, context: RequestContext): Promise<LoginOutcome> {
    const key = nameKey(input.name);
    if (!this.teamPasswordMatches(input.password)) throw await this.strangerFailure('sign-in', input.name, context);
    const member = await this.activeMember(key);
    // The member's enrollment link and their remembered device are not held by the name's lock.
    if (member?.pin_hash === null && (await memberOfEnrollment(this.db, enrollmentToken))?.id === member.id) {
      await audit(this.db, { event: 'sign-in', outcome: 'info', actorName: member.full_name, ip: context.ip, detail: 'PIN setup required' });
      return { kind: 'pin-setup-required', name: member.full_name };
    }
    const rememberedDevice = member === undefined ? undefined : await this.rememberedDeviceOf(member, deviceToken);
    const attempt: Attempt = { lockKey: lockKeyOf(key, rememberedDevice), rememberedDevice: rememberedDevice !== undefined };
    await this.refuseIfLocked(attempt, input.name, context);
    const pin = input.pin ?? '';
    if (member === undefined) {
      await verifyDecoy(this.secrets.pinPepper);
      throw await this.failure('sign-in', attempt, input.name, context);
    }
    if (member.pin_hash === null) {
      // Without the member's enrollment cookie, "no PIN yet" answers exactly as a wrong PIN does.
      if (pin === '') throw pinRequired();
      const counted = await this.countPinAttempt(attempt, member.full_name, context);
      await verifyDecoy(this.secrets.pinPepper);
      throw await this.failure('sign-in', attempt, member.full_name, context, counted);
    }
    if (pin === '') throw pinRequired();
    const counted = await this.countPinAttempt(attempt, member.full_name, context);
    if (!(await verifyPin(member.pin_hash, pin, this.secrets.pinPepper))) {
      throw await this.failure('sign-in', attempt, member.full_name, context, counted);
    }
    return this.signIn('sign-in', member, attempt, context, rememberedDevice);
  }

  /**
   * Only the member an enrollment link was issued to, in the browser that opened it, may create a
   * PIN; the link works once. Nothing here is a PIN guess, so nothing counts toward a name's lock.
   */
  async setupPin(input: SetupPinRequest, enrollmentToken: string | undefined, context: RequestContext): Promise<SignedIn> {
    const key = nameKey(input.name);
    if (!this.teamPasswordMatches(input.password)) throw await this.strangerFailure('pin-setup', input.name, context);
    // No lock check: the link is the proof, and a lock must never keep a member from enrolling.
    const enrolled = await memberOfEnrollment(this.db, enrollmentToken);
    if (enrollmentToken === undefined || enrolled === undefined || enrolled.name_key !== key || enrolled.is_qa === 1) {
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
    return this.signIn('pin-setup', { ...enrolled, pin_hash: pinHash }, { lockKey: key, rememberedDevice: false }, context);
  }

  async quickLogin(input: QuickLoginRequest, deviceToken: string | undefined, context: RequestContext): Promise<SignedIn> {
    const key = nameKey(input.name);
    const member = deviceToken === undefined ? undefined : await this.sessions.findDeviceMember(deviceToken);
    // The device token is bound to one member: without it nobody may try PINs for this name.
    if (member === undefined || member.name_key !== key || member.is_qa === 1 || deviceToken === undefined) throw await this.strangerFailure('quick-login', input.name, context);
    // The member's own device: its wrong PINs lock this device, and the name's lock does not hold it.
    const attempt: Attempt = { lockKey: lockKeyOf(key, deviceToken), rememberedDevice: true };
    await this.refuseIfLocked(attempt, input.name, context);
    if (member.pin_hash === null) throw new AppError(400, ERROR_CODES.pinNotSet, AUTH_MESSAGES.pinNotSet);
    const counted = await this.countPinAttempt(attempt, member.full_name, context);
    if (!(await verifyPin(member.pin_hash, input.pin, this.secrets.pinPepper))) {
      throw await this.failure('quick-login', attempt, member.full_name, context, counted);
    }
    return this.signIn('quick-login', member, attempt, context, deviceToken);
  }

  /**
   * Audited only when a session ended: the route is public and not rate-limited (signing out must
   * always work), so a call that ended nothing must store nothing, or anyone could grow the log.
   */
  async logout(sessionToken: string | undefined, member: MemberRow | null, context: RequestContext): Promise<void> {
    const ended = sessionToken !== undefined && (await this.sessions.endSession(sessionToken));
    if (!ended) return;
    await audit(this.db, { event: 'logout', outcome: 'success', actorName: member?.full_name ?? null, ip: context.ip });
  }

  /** 'Use Different Account': ends the session and forgets this device; audited, as logout is, only when it did either. */
  async clearSession(sessionToken: string | undefined, deviceToken: string | undefined, member: MemberRow | null, context: RequestContext): Promise<void> {
    const ended = sessionToken !== undefined && (await this.sessions.endSession(sessionToken));
    const forgotten = deviceToken !== undefined && (await this.sessions.revokeDeviceToken(deviceToken));
    if (!ended && !forgotten) return;
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

  /**
   * Same answer whether or not the name exists; at most one pending request per member. The QA
   * member is an unknown name here too: its PIN is the configured one, and a reset would break the self-test.
   */
  async forgotPin(memberName: string, context: RequestContext): Promise<void> {
    const found = await findMemberByKey(this.db, nameKey(memberName));
    const member = found?.is_qa === 1 ? undefined : found;
    if (member !== undefined && member.active === 1) {
      await insertPinResetRequest(this.db, member);
    }
    await audit(this.db, {
      event: 'forgot-pin',
      outcome: member === undefined ? 'failure' : 'success',
      actorName: found?.full_name ?? memberName,
      ip: context.ip,
      detail: found === undefined ? 'unknown name' : member === undefined ? 'the QA member: no PIN reset' : undefined,
    });
  }

  private teamPasswordMatches(password: string): boolean {
    return secretsMatch(password, this.secrets.teamPassword);
  }

  /** The QA member is not one: it is the self-test's alone (startQaSession), never a shared account. */
  private async activeMember(key: string): Promise<MemberRow | undefined> {
    const member = await findMemberByKey(this.db, key);
    return member?.active === 1 && member.is_qa !== 1 ? member : undefined;
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

  /** The browser's device token when it is one of this member's remembered devices. */
  private async rememberedDeviceOf(member: MemberRow, deviceToken: string | undefined): Promise<string | undefined> {
    if (deviceToken === undefined) return undefined;
    return (await this.sessions.findDeviceMember(deviceToken))?.id === member.id ? deviceToken : undefined;
  }

  private async refuseIfLocked(attempt: Attempt, attemptedName: string, context: RequestContext): Promise<void> {
    const remainingMs = await this.locks.remainingLock(attempt.lockKey);
    if (remainingMs > 0) {
      await audit(this.db, { event: 'lockout', outcome: 'locked', actorName: attemptedName, ip: context.ip, detail: `attempt while locked, from ${deviceOf(attempt, context)}` });
      throw lockedOut(Math.ceil(remainingMs / 1000));
    }
  }

  /**
   * Counts a PIN attempt before the PIN is checked: a burst of parallel guesses gets at most
   * LOCK_AFTER_FAILURES of them checked, the rest are refused like attempts on a locked name.
   */
  private async countPinAttempt(attempt: Attempt, attemptedName: string, context: RequestContext): Promise<CountedAttempt> {
    const counted = await this.locks.countAttempt(attempt.lockKey);
    if (!counted.allowed) {
      const remainingMs = await this.locks.remainingLock(attempt.lockKey);
      await audit(this.db, { event: 'lockout', outcome: 'locked', actorName: attemptedName, ip: context.ip, detail: `attempt beyond the limit, from ${deviceOf(attempt, context)}` });
      throw lockedOut(Math.ceil(remainingMs / 1000));
    }
    return counted;
  }

  /**
   * A failed attempt: audited with the address and the device it came from (who is trying is what
   * the admin needs to know), and a lock when it was the last one allowed. A lock never touches the
   * member's remembered devices.
   */
  private async failure(event: AuditEvent, attempt: Attempt, attemptedName: string, context: RequestContext, counted?: CountedAttempt): Promise<AppError> {
    const outcome = counted === undefined ? await this.locks.recordFailure(attempt.lockKey) : await this.locks.lockIfDue(attempt.lockKey, counted);
    const from = deviceOf(attempt, context);
    await audit(this.db, { event, outcome: 'failure', actorName: attemptedName, ip: context.ip, detail: `wrong name or PIN from ${from}` });
    if (!outcome.locked) return invalidCredentials();
    const until = new Date(outcome.lockedUntil).toISOString();
    const what = attempt.rememberedDevice ? 'this remembered device' : 'unknown devices (the member\'s remembered devices still sign in)';
    await audit(this.db, { event: 'lockout', outcome: 'locked', actorName: attemptedName, ip: context.ip, detail: `locked for ${what} until ${until}; last wrong PIN from ${from}` });
    return lockedOut(Math.ceil((outcome.lockedUntil - Date.now()) / 1000));
  }

  /**
   * One transaction: a sign-in is one commit (one fsync on SQLite). A sign-in revokes any enrollment
   * link and clears the lock it was counted on: a sign-in on the member's own device leaves the
   * name's lock for unknown devices in place. Then the member's oldest sessions beyond the bound end.
   */
  private async signIn(event: AuditEvent, member: MemberRow, attempt: Attempt, context: RequestContext, existingDevice?: string): Promise<SignedIn> {
    const signedIn = await this.db.transaction().execute(async (trx) => {
      const sessions = this.sessions.within(trx);
      await new LoginLocks(trx).clear(attempt.lockKey);
      await deleteEnrollmentTokensOf(trx, member.id);
      await recordSignIn(trx, member.id, Date.now());
      const sessionToken = await sessions.createSession(member.id, context);
      const deviceToken = existingDevice ?? (await sessions.createDeviceToken(member.id));
      await audit(trx, { event, outcome: 'success', actorName: member.full_name, ip: context.ip });
      return { kind: 'signed-in' as const, member, sessionToken, deviceToken };
    });
    // After the commit, so the streams are told only of sessions that are really gone.
    await this.sessions.endSessionsBeyondLimit(member.id, signedIn.sessionToken);
    return signedIn;
  }
}

/**
 * The self-test's own way in: the sign-in routes refuse the QA member, so a run starts its sessions
 * here, in-process, after checking the configured QA PIN against the stored one. Only an active QA
 * member gets one. Answers the session token.
 */
export async function startQaSession(
  db: Kysely<Database>,
  sessions: SessionStore,
  memberId: number,
  credentials: { pin: string; pinPepper: string },
  context: RequestContext,
): Promise<string> {
  const member = await findMemberById(db, memberId);
  if (member?.is_qa !== 1 || member.active !== 1 || member.pin_hash === null || !(await verifyPin(member.pin_hash, credentials.pin, credentials.pinPepper))) {
    throw forbidden('Only the active QA member, with the configured QA PIN, gets a self-test session', ERROR_CODES.forbidden);
  }
  return db.transaction().execute(async (trx) => {
    await recordSignIn(trx, member.id, Date.now());
    const token = await sessions.within(trx).createSession(member.id, context);
    await audit(trx, { event: 'sign-in', outcome: 'success', actorName: member.full_name, ip: context.ip, detail: 'QA self-test session' });
    return token;
  });
}

/** Which lock an attempt counts on, and whether it came from one of the member's remembered devices. */
interface Attempt {
  lockKey: string;
  rememberedDevice: boolean;
}

/** The device as the audit names it: remembered or not, and its browser. */
function deviceOf(attempt: Attempt, context: RequestContext): string {
  const browser = context.userAgent === undefined || context.userAgent === '' ? 'no user agent' : context.userAgent.slice(0, 200);
  return `${attempt.rememberedDevice ? 'a remembered device' : 'an unknown device'} (${browser})`;
}
