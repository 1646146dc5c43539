import type { Kysely } from 'kysely';
import type { AuditLogTable, Database } from '../../db/schema.js';
import { insertAuditEntry } from './repo.js';

export type AuditEvent =
  | 'sign-in'
  | 'quick-login'
  | 'pin-setup'
  | 'logout'
  | 'clear-session'
  | 'forgot-pin'
  | 'lockout'
  | 'enrollment'
  | 'admin-action'
  | 'admin-password';

/** Records who did what from where. Never given a PIN or a password. */
export async function audit(
  db: Kysely<Database>,
  entry: { event: AuditEvent; outcome: AuditLogTable['outcome']; actorName: string | null; ip: string; detail?: string },
): Promise<void> {
  await insertAuditEntry(db, { ...entry, detail: entry.detail });
}
