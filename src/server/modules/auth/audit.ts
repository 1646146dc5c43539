import type { Kysely } from 'kysely';
import type { AuditLogTable, Database } from '../../db/schema.js';

export type AuditEvent =
  | 'sign-in'
  | 'quick-login'
  | 'pin-setup'
  | 'logout'
  | 'clear-session'
  | 'forgot-pin'
  | 'lockout'
  | 'admin-action'
  | 'admin-password';

/** Records who did what from where (ARCHITECTURE.md 4.10). Never given a PIN or a password. */
export async function audit(
  db: Kysely<Database>,
  entry: { event: AuditEvent; outcome: AuditLogTable['outcome']; actorName: string | null; ip: string; detail?: string },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      event: entry.event,
      outcome: entry.outcome,
      actor_name: entry.actorName?.slice(0, 100) ?? null,
      ip: entry.ip.slice(0, 64),
      detail: entry.detail?.slice(0, 500) ?? null,
      created_at: Date.now(),
    })
    .execute();
}
