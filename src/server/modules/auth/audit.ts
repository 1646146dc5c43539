import type { Kysely } from 'kysely';
import type { AuditEventName } from '../../../common/api/admin.js';
import type { AuditLogTable, Database } from '../../db/schema.js';
import { insertAuditEntry } from './repo.js';

/** The events the trail records, as its filter offers them. */
export type AuditEvent = AuditEventName;

/** Records who did what from where. Never given a PIN or a password. */
export async function audit(
  db: Kysely<Database>,
  entry: { event: AuditEvent; outcome: AuditLogTable['outcome']; actorName: string | null; ip: string; detail?: string },
): Promise<void> {
  await insertAuditEntry(db, { ...entry, detail: entry.detail });
}
