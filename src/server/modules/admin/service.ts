import type { Kysely, Transaction } from 'kysely';
import { AUDIT_PAGE_SIZE } from '../../../common/api/admin.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';
import type { AddMemberInput, AddMemberResult, AdminMember, AuditPage, EnrollmentLinkResult, PinResetRequest, SystemStatus } from '../../../common/contract/admin.js';
import type { MessageResponse } from '../../../common/contract/common.js';
import { nameKey, normalizeFullName } from '../../../common/names.js';
import { PRODUCT_VERSION } from '../../../common/product.js';
import type { AppConfig } from '../../config.js';
import type { Dialect } from '../../db/connection.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import { audit } from '../auth/audit.js';
import { deleteDeviceTokensOf, deleteSessionsOf } from '../auth/repo.js';
import { deleteEnrollmentTokensOf } from '../enrollment/repo.js';
import type { EnrollmentLink } from '../enrollment/service.js';
import { findMemberById, findMemberByKey, lockMember } from '../members/repo.js';
import { addMember, assignRole, auditLinkRevoked, clearPinAndIssueLink, ensureQaMember, newEnrollmentLink, refuseQaUserName, unlockMember } from '../members/service.js';
import { QA_REMOTE_ADDRESS } from '../qa/runner.js';
import { refusalToChangeAdmin, refusalToResetPinOf, type AdminActions } from './policies.js';
import {
  countActiveAdmins,
  findMemberOverview,
  findPinResetRequest,
  listMemberOverview,
  listPinResetRequests,
  pageAudit,
  setMemberActive,
  type AuditRow,
  type MemberOverviewRow,
  type PinResetRow,
} from './repo.js';

/** The PIN reset list is a working list, not an archive: the most recent ones are enough. */
const PIN_RESET_LIST_LIMIT = 200;

const iso = (epochMs: number) => new Date(epochMs).toISOString();
const isoOrNull = (epochMs: number | null) => (epochMs === null ? null : iso(epochMs));

function presentMember(row: MemberOverviewRow, now: number): AdminMember {
  const expiresAt = row.enrollment_expires_at;
  return {
    id: row.id,
    name: row.full_name,
    role: row.role,
    isQa: row.is_qa === 1,
    active: row.active === 1,
    pinSet: row.pin_hash !== null,
    enrollment: expiresAt === null ? 'none' : expiresAt > now ? 'pending' : 'expired',
    enrollmentExpiresAt: isoOrNull(expiresAt),
    lastSignInAt: isoOrNull(row.last_sign_in_at),
    lockedUntil: row.locked_until !== null && row.locked_until > now ? iso(row.locked_until) : null,
    createdAt: iso(row.created_at),
  };
}

function presentPinReset(row: PinResetRow): PinResetRequest {
  return {
    id: row.id,
    memberName: row.member_name,
    status: row.status,
    requestedAt: iso(row.requested_at),
    resolvedAt: isoOrNull(row.resolved_at),
    resolvedBy: row.resolved_by,
  };
}

function presentAudit(row: AuditRow) {
  return { id: row.id, event: row.event, outcome: row.outcome, actorName: row.actor_name, ip: row.ip, detail: row.detail, createdAt: iso(row.created_at) };
}

function presentLink(link: EnrollmentLink) {
  return { url: link.url, expiresAt: iso(link.expiresAt) };
}

/** An issued link is its member's event too: filtering the trail by member shows when they were sent one. */
async function auditLinkIssued(db: Kysely<Database>, memberName: string, admin: MemberRow, context: Context, link: EnrollmentLink): Promise<void> {
  await audit(db, { event: 'enrollment', outcome: 'info', actorName: memberName, ip: context.ip, detail: `link issued by ${admin.full_name}, valid until ${iso(link.expiresAt)}` });
}

interface Context {
  ip: string;
}

function memberInactive(member: MemberRow) {
  return conflict(`${member.full_name} is deactivated; reactivate them first`, ERROR_CODES.memberInactive);
}

/**
 * The admin panel's actions. The route guard has checked the admin role; every change here also
 * checks the admin password through AdminActions (throttled, audited) and announces itself on the
 * live stream so another admin's panel follows.
 */
export class AdminService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly events: EventBus,
    private readonly actions: AdminActions,
    private readonly config: Pick<AppConfig, 'publicUrl' | 'adminName' | 'qaUserName' | 'secrets' | 'secretSources' | 'ai'>,
  ) {}

  async members(now = Date.now()): Promise<AdminMember[]> {
    return (await listMemberOverview(this.db)).map((row) => presentMember(row, now));
  }

  async addMember(admin: MemberRow, context: Context, input: AddMemberInput): Promise<AddMemberResult> {
    const name = normalizeFullName(input.memberName);
    const result = await this.actions.run(admin, context, input.adminPassword, `add member ${name}`, async () => {
      refuseQaUserName(name, this.config.qaUserName);
      const added = await addMember(this.db, name);
      if (!added.created) {
        const existing = await findMemberByKey(this.db, nameKey(added.fullName));
        throw conflict(`${existing?.full_name ?? added.fullName} is already a team member`, ERROR_CODES.memberExists);
      }
      const member = await findMemberByKey(this.db, nameKey(added.fullName));
      if (member === undefined) throw notFound(`No member named "${added.fullName}"`, ERROR_CODES.memberNotFound);
      return this.issueLink(admin, context, member.id, 'new enrollment link for', (trx, current) => newEnrollmentLink(trx, current.full_name, this.config.publicUrl));
    });
    await auditLinkIssued(this.db, result.member.full_name, admin, context, result.link);
    await this.events.publish({ type: 'members.changed' });
    const overview = await findMemberOverview(this.db, result.member.id);
    if (overview === undefined) throw notFound(`No member named "${name}"`, ERROR_CODES.memberNotFound);
    return {
      message: `${result.member.full_name} has been added to the team. Send them the enrollment link below; it works once.`,
      memberName: result.member.full_name,
      enrollmentLink: presentLink(result.link),
      member: presentMember(overview, Date.now()),
    };
  }

  async enrollmentLink(admin: MemberRow, context: Context, memberId: number, adminPassword: string): Promise<EnrollmentLinkResult> {
    const member = await this.member(memberId);
    await this.refuse(admin, context, member, 'new enrollment link for', refusalToResetPinOf(admin, member, this.config.adminName));
    const { link } = await this.actions.run(admin, context, adminPassword, `new enrollment link for ${member.full_name}`, () =>
      this.issueLink(admin, context, member.id, 'new enrollment link for', (trx, current) => newEnrollmentLink(trx, current.full_name, this.config.publicUrl)),
    );
    await auditLinkIssued(this.db, member.full_name, admin, context, link);
    await this.events.publish({ type: 'members.changed' });
    return { message: `A new enrollment link for ${member.full_name}; any earlier link no longer works.`, memberName: member.full_name, enrollmentLink: presentLink(link) };
  }

  async unlock(admin: MemberRow, context: Context, memberId: number, adminPassword: string): Promise<MessageResponse> {
    const member = await this.member(memberId);
    await this.actions.run(admin, context, adminPassword, `unlock ${member.full_name}`, async () => {
      await this.refuse(admin, context, member, 'unlock', refusalToChangeAdmin(admin, member, this.config.adminName, 'unlock'));
      return unlockMember(this.db, member.full_name);
    });
    await this.events.publish({ type: 'members.changed' });
    return { message: `${member.full_name} can sign in again.` };
  }

  async setRole(admin: MemberRow, context: Context, memberId: number, input: { adminPassword: string; role: 'member' | 'admin' }): Promise<MessageResponse> {
    const member = await this.member(memberId);
    const assigned = await this.actions.run(admin, context, input.adminPassword, `make ${member.full_name} ${input.role}`, async () => {
      if (member.role === input.role) return undefined;
      if (input.role === 'admin' && member.is_qa === 1) throw conflict('The QA user cannot be an admin', ERROR_CODES.forbiddenChange);
      if (input.role === 'member') {
        this.refuseChangeToKeyAdmin(admin, member, 'remove the admin role of');
        await this.refuse(admin, context, member, 'remove the admin role of', refusalToChangeAdmin(admin, member, this.config.adminName, 'remove the admin role of'));
      }
      // A promotion also revokes the member's unused enrollment link (assignRole).
      return assignRole(this.db, member.name_key, input.role);
    });
    if (assigned?.linkRevoked === true) await auditLinkRevoked(this.db, member.full_name, admin.full_name, context.ip);
    if (assigned?.changed === true) {
      // Open live streams carry the old role; ending them makes the browser reconnect with the new one.
      await this.events.endSessions({ memberId: member.id });
      await this.events.publish({ type: 'members.changed' });
    }
    if (input.role === 'member') return { message: `${member.full_name} is now a member.` };
    const revoked = assigned?.linkRevoked === true ? ' Their unused enrollment link no longer works: only the configured admin (or the command line) can issue an admin a new one.' : '';
    return { message: `${member.full_name} is now an admin.${revoked}` };
  }

  async setActive(admin: MemberRow, context: Context, memberId: number, input: { adminPassword: string; active: boolean }): Promise<MessageResponse> {
    const member = await this.member(memberId);
    await this.actions.run(admin, context, input.adminPassword, `${input.active ? 'reactivate' : 'deactivate'} ${member.full_name}`, async () => {
      if (input.active) {
        // Either way: bringing back an admin the configured admin deactivated is theirs to do too.
        await this.refuse(admin, context, member, 'reactivate', refusalToChangeAdmin(admin, member, this.config.adminName, 'reactivate'));
        await setMemberActive(this.db, member.id, true);
        return;
      }
      this.refuseChangeToKeyAdmin(admin, member, 'deactivate');
      await this.refuse(admin, context, member, 'deactivate', refusalToChangeAdmin(admin, member, this.config.adminName, 'deactivate'));
      if (member.role === 'admin' && (await countActiveAdmins(this.db)) <= 1) throw conflict('The last admin cannot be deactivated', ERROR_CODES.forbiddenChange);
      // Signed out everywhere at once: no session, no quick login, no enrollment link survives.
      await this.db.transaction().execute(async (trx) => {
        await setMemberActive(trx, member.id, false);
        await deleteSessionsOf(trx, member.id);
        await deleteDeviceTokensOf(trx, member.id);
        await deleteEnrollmentTokensOf(trx, member.id);
      });
      await this.events.endSessions({ memberId: member.id });
    });
    await this.events.publish({ type: 'members.changed' });
    return { message: input.active ? `${member.full_name} can sign in again.` : `${member.full_name} has been deactivated and signed out everywhere.` };
  }

  async initQa(admin: MemberRow, context: Context, adminPassword: string): Promise<MessageResponse> {
    const qa = await this.actions.run(admin, context, adminPassword, 'initialize the QA user', () =>
      ensureQaMember(this.db, this.config.qaUserName, this.config.secrets.qaPin, this.config.secrets.pinPepper, { reactivate: true }),
    );
    await this.events.publish({ type: 'members.changed' });
    return { message: `QA test user "${qa.full_name}" is ready with the configured QA PIN. The self-test signs in as this member; it is left out of analytics and AI summaries.` };
  }

  async pinResetRequests(): Promise<PinResetRequest[]> {
    return (await listPinResetRequests(this.db, PIN_RESET_LIST_LIMIT)).map(presentPinReset);
  }

  async resolvePinReset(admin: MemberRow, context: Context, requestId: number, adminPassword: string): Promise<EnrollmentLinkResult> {
    const request = await findPinResetRequest(this.db, requestId);
    if (request === undefined) throw notFound('No such PIN reset request', ERROR_CODES.pinResetNotFound);
    const member = await this.member(request.member_id);
    return this.resetPinOf(admin, context, member, adminPassword, async (trx) => {
      // Read again under the member's lock: two admins pressing at once reset once.
      const pending = await findPinResetRequest(trx, requestId);
      if (pending?.status !== 'pending') throw conflict(`The request of ${member.full_name} is already resolved`, ERROR_CODES.alreadyResolved);
    });
  }

  /** A PIN reset the admin starts: no request needed, only an active member. */
  async resetPin(admin: MemberRow, context: Context, memberId: number, adminPassword: string): Promise<EnrollmentLinkResult> {
    const member = await this.member(memberId);
    if (member.active !== 1) throw memberInactive(member);
    return this.resetPinOf(admin, context, member, adminPassword, (_trx, current) => {
      // Read again under the member's lock: a deactivation that committed first wins.
      if (current.active !== 1) throw memberInactive(current);
      return Promise.resolve();
    });
  }

  /**
   * Clears the member's PIN, ends their sessions, devices and streams, resolves their pending
   * requests and issues the link, in one transaction with their row locked, once `precondition`
   * (read inside it) holds. The QA member's PIN is the configured QA PIN, never reset here.
   */
  private async resetPinOf(
    admin: MemberRow,
    context: Context,
    member: MemberRow,
    adminPassword: string,
    precondition: (trx: Transaction<Database>, current: MemberRow) => Promise<void>,
  ): Promise<EnrollmentLinkResult> {
    // Forgot-PIN files none for the QA member; one filed before it did must not clear the QA PIN either.
    if (member.is_qa === 1) throw conflict(`${member.full_name} is the QA user: its PIN is the configured QA PIN, which every self-test run sets`, ERROR_CODES.forbiddenChange);
    await this.refuse(admin, context, member, 'reset the PIN of', refusalToResetPinOf(admin, member, this.config.adminName));
    const link = await this.actions.run(admin, context, adminPassword, `reset the PIN of ${member.full_name}`, async () => {
      const issued = await this.issueLink(admin, context, member.id, 'reset the PIN of', async (trx, current) => {
        await precondition(trx, current);
        return clearPinAndIssueLink(trx, current, admin.full_name, this.config.publicUrl);
      });
      await this.events.endSessions({ memberId: member.id });
      return issued;
    });
    await auditLinkIssued(this.db, member.full_name, admin, context, link);
    // The member list follows this event too (their PIN), as does the request list.
    await this.events.publish({ type: 'pin-resets.changed' });
    return {
      message: `The PIN of ${member.full_name} has been cleared and they are signed out everywhere. Send them the enrollment link below to create a new PIN.`,
      memberName: member.full_name,
      enrollmentLink: presentLink(link),
    };
  }

  async audit(query: { member?: string | undefined; event?: string | undefined; qa?: 'show' | 'hide' | undefined; page?: number | undefined }): Promise<AuditPage> {
    const page = query.page ?? 1;
    const { rows, total } = await pageAudit(
      this.db,
      {
        actorName: query.member === undefined ? undefined : normalizeFullName(query.member),
        event: query.event,
        // Every request of a self-test run comes from its own address, which no real client has.
        exceptIp: query.qa === 'hide' ? QA_REMOTE_ADDRESS : undefined,
      },
      { offset: (page - 1) * AUDIT_PAGE_SIZE, limit: AUDIT_PAGE_SIZE },
    );
    return { entries: rows.map(presentAudit), page, pageSize: AUDIT_PAGE_SIZE, total };
  }

  system(): SystemStatus {
    const sources = this.config.secretSources;
    return {
      version: PRODUCT_VERSION,
      database: this.dialect,
      aiProvider: this.config.ai.provider,
      adminName: this.config.adminName === undefined ? null : normalizeFullName(this.config.adminName),
      qaUserName: normalizeFullName(this.config.qaUserName),
      securityModel: SECURITY_MODEL,
      secrets: [
        { name: 'TEAM_PASSWORD', label: 'Team password', source: sources.teamPassword },
        { name: 'ADMIN_PASSWORD', label: 'Admin password', source: sources.adminPassword },
        { name: 'QA_PIN', label: 'QA user PIN', source: sources.qaPin },
        { name: 'PIN_PEPPER', label: 'PIN pepper', source: sources.pinPepper },
      ],
    };
  }

  private async member(memberId: number): Promise<MemberRow> {
    const member = await findMemberById(this.db, memberId);
    if (member === undefined) throw notFound('No such member', ERROR_CODES.memberNotFound);
    return member;
  }

  /**
   * What only the configured admin may do to another admin (policies.ts: a PIN reset, an enrollment
   * link, a demotion, a deactivation or reactivation, an unlock) answers 403 with the reason when
   * `refusal` says so; audited.
   */
  private async refuse(admin: MemberRow, context: Context, member: MemberRow, action: string, refusal: string | undefined): Promise<void> {
    if (refusal !== undefined) throw await this.refused(admin, context, member, action, refusal);
  }

  private async refused(admin: MemberRow, context: Context, member: MemberRow, action: string, refusal: string) {
    await audit(this.db, { event: 'admin-action', outcome: 'failure', actorName: admin.full_name, ip: context.ip, detail: `${action} ${member.full_name} refused: not the configured admin` });
    return forbidden(refusal, ERROR_CODES.forbiddenChange);
  }

  /**
   * Hands out a member's enrollment link (`issue`: a first link or a PIN reset's) in one transaction
   * with their row locked, asking refusalToResetPinOf again of the member as they now are. A
   * promotion that committed since the caller's check is seen here; one still to come waits for
   * this commit and then revokes the link (assignRole). Checked only before, a second admin's link
   * could land just after a promotion and set the new admin's PIN.
   */
  private async issueLink<T>(admin: MemberRow, context: Context, memberId: number, action: string, issue: (trx: Transaction<Database>, member: MemberRow) => Promise<T>): Promise<T> {
    const outcome = await this.db.transaction().execute(async (trx): Promise<{ issued: T } | { refusal: string; member: MemberRow }> => {
      const current = await lockMember(trx, this.dialect, memberId);
      if (current === undefined) throw notFound('No such member', ERROR_CODES.memberNotFound);
      const refusal = refusalToResetPinOf(admin, current, this.config.adminName);
      return refusal === undefined ? { issued: await issue(trx, current) } : { refusal, member: current };
    });
    // Audited after the transaction: on SQLite a write beside it would wait for it forever.
    if ('refusal' in outcome) throw await this.refused(admin, context, outcome.member, action, outcome.refusal);
    return outcome.issued;
  }

  /** An admin cannot lock themselves out, and the configured admin's role comes back at every start anyway. */
  private refuseChangeToKeyAdmin(admin: MemberRow, member: MemberRow, action: string): void {
    if (member.id === admin.id) throw conflict(`You cannot ${action} yourself`, ERROR_CODES.forbiddenChange);
    if (this.config.adminName !== undefined && member.name_key === nameKey(this.config.adminName)) {
      throw conflict(`${member.full_name} is the configured admin (ADMIN_NAME); you cannot ${action} them here`, ERROR_CODES.forbiddenChange);
    }
  }
}

/** What the server enforces, as the System tab states it. */
const SECURITY_MODEL = [
  'Pre-approved members only: the admin adds each member by full name; nobody can sign up.',
  'A personal 4-digit PIN is required, created once through a single-use enrollment link (72 hours); common PINs are refused.',
  'Five wrong PINs lock a name for unknown devices, with growing lock times up to an hour; the member\'s remembered devices and enrollment link still work; the same answer for an unknown name, a wrong PIN and a wrong team password.',
  'Sessions are tracked on the server: opaque HttpOnly cookies, idle and absolute timeouts, ended everywhere on logout, PIN reset or deactivation.',
  'Roles are decided on the server: every admin call checks the admin role and the admin password (throttled and audited).',
  'Only the configured admin (ADMIN_NAME) or the command line resets another admin\'s PIN, demotes, deactivates, reactivates or unlocks them; making a member an admin revokes their unused enrollment link.',
  'Secrets are never shown: not in this page, any API answer, the client bundle or a log line.',
];
