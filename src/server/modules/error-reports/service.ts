import type { Kysely } from 'kysely';
import type { ErrorReport } from '../../../shared/contract/error-reports.js';
import type { Database } from '../../db/schema.js';
import { insertErrorLog } from './repo.js';

export interface ReportContext {
  memberName: string | null;
  ip: string;
}

/**
 * PostgreSQL text cannot hold NUL (the insert fails, a 500); a report is still worth keeping, so the
 * character is replaced rather than the report refused. Both engines then store the same text.
 */
function storable(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

/** Stores a validated client report; the schema has already bounded every field. */
export function recordClientError(db: Kysely<Database>, report: ErrorReport, context: ReportContext): Promise<number> {
  return insertErrorLog(db, {
    error_type: report.errorType,
    message: storable(report.message),
    stack: report.stack === undefined ? null : storable(report.stack),
    severity: report.severity,
    source: report.source,
    user_agent: report.userAgent === undefined ? null : storable(report.userAgent),
    url: report.url === undefined ? null : storable(report.url),
    member_name: context.memberName,
    // The column holds 64 characters; behind a trusted proxy the address is client-supplied text.
    ip: context.ip.slice(0, 64),
    created_at: Date.now(),
  });
}
