import { sql, type Kysely, type Selectable } from 'kysely';
import type { AuditLogTable, Database, MemberRow, PinResetRequestsTable } from '../../db/schema.js';

export type MemberOverviewRow = MemberRow & { enrollment_expires_at: number | null; locked_until: number | null };

/** Every member with their enrollment link's expiry and their sign-in lock, in one query. */
export function listMemberOverview(db: Kysely<Database>): Promise<MemberOverviewRow[]> {
  return db
    .selectFrom('members')
    .leftJoin('enrollment_tokens', 'enrollment_tokens.member_id', 'members.id')
    .leftJoin('login_locks', 'login_locks.name_key', 'members.name_key')
    .selectAll('members')
    .select(['enrollment_tokens.expires_at as enrollment_expires_at', 'login_locks.locked_until as locked_until'])
    .orderBy('members.full_name')
    .execute();
}

export function findMemberOverview(db: Kysely<Database>, id: number): Promise<MemberOverviewRow | undefined> {
  return db
    .selectFrom('members')
    .leftJoin('enrollment_tokens', 'enrollment_tokens.member_id', 'members.id')
    .leftJoin('login_locks', 'login_locks.name_key', 'members.name_key')
    .selectAll('members')
    .select(['enrollment_tokens.expires_at as enrollment_expires_at', 'login_locks.locked_until as locked_until'])
    .where('members.id', '=', id)
    .executeTakeFirst();
}

export async function countActiveAdmins(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('members').select((eb) => eb.fn.countAll<number | string>().as('count')).where('role', '=', 'admin').where('active', '=', 1).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function setMemberActive(db: Kysely<Database>, id: number, active: boolean): Promise<void> {
  await db.updateTable('members').set({ active: active ? 1 : 0 }).where('id', '=', id).execute();
}

export type PinResetRow = Selectable<PinResetRequestsTable>;

/** Pending requests first (oldest first: they have waited longest), then the resolved ones, newest first. */
export function listPinResetRequests(db: Kysely<Database>, limit: number): Promise<PinResetRow[]> {
  return db
    .selectFrom('pin_reset_requests')
    .selectAll()
    .orderBy('status')
    .orderBy('resolved_at', 'desc')
    .orderBy('requested_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function findPinResetRequest(db: Kysely<Database>, id: number): Promise<PinResetRow | undefined> {
  return db.selectFrom('pin_reset_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

export type AuditRow = Selectable<AuditLogTable>;

interface AuditFilter {
  actorName: string | undefined;
  event: string | undefined;
  /** Leaves out what requests from this address wrote (the self-test's). */
  exceptIp?: string | undefined;
}

function filteredAudit(db: Kysely<Database>, filter: AuditFilter) {
  let query = db.selectFrom('audit_log');
  // Failed sign-ins record the name as typed: the filter ignores case.
  if (filter.actorName !== undefined) query = query.where(sql<string>`lower(actor_name)`, '=', filter.actorName.toLowerCase());
  if (filter.event !== undefined) query = query.where('event', '=', filter.event);
  const { exceptIp } = filter;
  if (exceptIp !== undefined) query = query.where((eb) => eb.or([eb('ip', 'is', null), eb('ip', '<>', exceptIp)]));
  return query;
}

/** One page of the audit trail, newest first, and how many entries match in all. */
export async function pageAudit(db: Kysely<Database>, filter: AuditFilter, page: { offset: number; limit: number }): Promise<{ rows: AuditRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filteredAudit(db, filter).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute(),
    filteredAudit(db, filter)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.count) };
}
