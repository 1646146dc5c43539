import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, ErrorLogsTable, NewErrorLog } from '../../db/schema.js';

export type ErrorLogRow = Selectable<ErrorLogsTable>;

/** Ranks severities for "keep the worst one seen": lower is worse. */
const severityRank = (column: string) =>
  sql<number>`case ${sql.ref(column)} when 'critical' then 0 when 'high' then 1 when 'medium' then 2 else 3 end`;

/**
 * Stores a report into its group in one atomic statement: a new group starts at 1; a repeat counts
 * up, takes the latest context (stack, address, page, member), keeps the worst severity, and
 * reopens a group that was marked resolved (the error is back). Answers the group's id and whether
 * the row is new.
 */
export async function upsertErrorGroup(db: Kysely<Database>, row: NewErrorLog & { group_key: string; last_seen_at: number }): Promise<{ id: number; created: boolean }> {
  const saved = await db
    .insertInto('error_logs')
    .values({ ...row, occurrences: 1 })
    .onConflict((oc) =>
      oc.column('group_key').doUpdateSet({
        occurrences: sql<number>`error_logs.occurrences + 1`,
        last_seen_at: (eb) => eb.ref('excluded.last_seen_at'),
        stack: (eb) => eb.ref('excluded.stack'),
        user_agent: (eb) => eb.ref('excluded.user_agent'),
        url: (eb) => eb.ref('excluded.url'),
        member_name: (eb) => eb.ref('excluded.member_name'),
        ip: (eb) => eb.ref('excluded.ip'),
        severity: sql<string>`case when ${severityRank('excluded.severity')} < ${severityRank('error_logs.severity')} then excluded.severity else error_logs.severity end`,
        resolved: 0,
        resolved_at: null,
        resolved_by: null,
      }),
    )
    .returning(['id', 'occurrences'])
    .executeTakeFirstOrThrow();
  return { id: saved.id, created: saved.occurrences === 1 };
}

/** 0 for a signed-in member's report, 1 for a signed-out one: what the trims give up first. */
const signedOutFirst = sql<number>`case when member_name is null then 1 else 0 end`;

/**
 * Keeps `keep` rows and deletes the rest: signed-in members' reports before signed-out ones, then
 * open before resolved, then the most recently seen. Signed-out reports are bounded on their own
 * (trimSignedOutErrorLogs), so they can never push out a member's open report.
 */
export async function trimErrorLogs(db: Kysely<Database>, keep: number): Promise<number> {
  const kept = db.selectFrom('error_logs').select('id').orderBy(signedOutFirst).orderBy('resolved').orderBy('last_seen_at', 'desc').orderBy('id', 'desc').limit(keep);
  const result = await db
    .deleteFrom('error_logs')
    .where('id', 'not in', db.selectFrom(kept.as('kept')).select('kept.id'))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Keeps the `keep` most recently seen signed-out reports (open before resolved); deletes the other signed-out ones. */
export async function trimSignedOutErrorLogs(db: Kysely<Database>, keep: number): Promise<number> {
  const kept = db.selectFrom('error_logs').select('id').where('member_name', 'is', null).orderBy('resolved').orderBy('last_seen_at', 'desc').orderBy('id', 'desc').limit(keep);
  const result = await db
    .deleteFrom('error_logs')
    .where('member_name', 'is', null)
    .where('id', 'not in', db.selectFrom(kept.as('kept')).select('kept.id'))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteResolvedBefore(db: Kysely<Database>, cutoff: number): Promise<number> {
  const result = await db.deleteFrom('error_logs').where('resolved', '=', 1).where('resolved_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The most recently seen entries first; `unresolvedOnly` for the admin's to-do list. */
export function listErrorLogs(db: Kysely<Database>, options: { unresolvedOnly: boolean; limit: number }): Promise<ErrorLogRow[]> {
  let query = db.selectFrom('error_logs').selectAll();
  if (options.unresolvedOnly) query = query.where('resolved', '=', 0);
  return query.orderBy('last_seen_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

/** Marks an entry resolved (once: a second call keeps the first resolver); undefined when there is no such entry. */
export async function resolveErrorLog(db: Kysely<Database>, id: number, resolvedBy: string, now: number): Promise<ErrorLogRow | undefined> {
  await db.updateTable('error_logs').set({ resolved: 1, resolved_at: now, resolved_by: resolvedBy }).where('id', '=', id).where('resolved', '=', 0).execute();
  return db.selectFrom('error_logs').selectAll().where('id', '=', id).executeTakeFirst();
}
