import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ERROR_CODES } from '../../../common/api/error-codes.js';
import type { ErrorLogEntry, ErrorReport } from '../../../common/contract/error-reports.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import { audit } from '../auth/audit.js';
import { deleteResolvedBefore, listErrorLogs, resolveErrorLog, trimErrorLogs, trimSignedOutErrorLogs, upsertErrorGroup, type ErrorLogRow } from './repo.js';

/** The admin's lists are bounded: the page shows the first few, and the table is capped anyway. */
const ERROR_LIST_LIMIT = 200;

const isoOrNull = (epochMs: number | null) => (epochMs === null ? null : new Date(epochMs).toISOString());

function presentErrorLog(row: ErrorLogRow): ErrorLogEntry {
  return {
    id: row.id,
    errorType: row.error_type,
    message: row.message,
    stack: row.stack,
    severity: row.severity,
    source: row.source,
    url: row.url,
    memberName: row.member_name,
    createdAt: new Date(row.created_at).toISOString(),
    lastSeenAt: new Date(row.last_seen_at).toISOString(),
    occurrences: row.occurrences,
    resolved: row.resolved === 1,
    resolvedAt: isoOrNull(row.resolved_at),
    resolvedBy: row.resolved_by,
  };
}

export interface ReportContext {
  memberName: string | null;
  ip: string;
}

export interface ErrorLogLimits {
  /** Rows kept at most; the least recently seen go first, resolved before open. */
  maxRows: number;
  /** Resolved rows older than this are deleted. */
  resolvedRetentionMs: number;
}

/**
 * Rows signed-out reports may hold at most: a tenth of the table. Anyone can send them, so they
 * must never crowd out what signed-in members reported.
 */
export function anonymousRowsMax(maxRows: number): number {
  return Math.max(1, Math.floor(maxRows / 10));
}

/**
 * PostgreSQL text cannot hold NUL (the insert fails, a 500); a report is still worth keeping, so the
 * character is replaced rather than the report refused. Both engines then store the same text.
 */
function storable(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

/**
 * Identical reports (type, message, source) are one group; a hash keeps the key short however long
 * the message. Signed-out reports group apart from members' ones: a signed-out repeat would
 * otherwise take over a member's report (and make it signed-out, first to go).
 */
function groupKeyOf(report: ErrorReport, signedOut: boolean): string {
  const scope = signedOut ? 'signed-out\u0000' : '';
  return createHash('sha256').update(`${scope}${report.errorType}\u0000${report.source}\u0000${storable(report.message)}`).digest('hex');
}

/**
 * Client error reports arrive signed out too, so their storage must stay bounded whatever is sent:
 * repeats are counted in one row, and the number of rows is capped.
 */
export class ErrorReports {
  private newGroupsSinceTrim = 0;
  private newSignedOutGroupsSinceTrim = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly limits: ErrorLogLimits,
    private readonly events: EventBus,
  ) {}

  /**
   * Trimming is a sort over the table, so it runs once per `trimEvery` new groups; trimming to
   * `maxRows - trimEvery` keeps the table at or under `maxRows` in between.
   */
  private get trimEvery(): number {
    return Math.max(1, Math.min(100, Math.floor(this.limits.maxRows / 10)));
  }

  /** The same for signed-out reports within their share. */
  private get signedOutTrimEvery(): number {
    return Math.max(1, Math.min(100, Math.floor(anonymousRowsMax(this.limits.maxRows) / 10)));
  }

  /** Stores a validated report into its group; answers the group's id. */
  async record(report: ErrorReport, context: ReportContext, now = Date.now()): Promise<number> {
    const { id, created } = await upsertErrorGroup(this.db, {
      group_key: groupKeyOf(report, context.memberName === null),
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
      created_at: now,
      last_seen_at: now,
    });
    if (created && context.memberName === null) {
      this.newSignedOutGroupsSinceTrim += 1;
      if (this.newSignedOutGroupsSinceTrim >= this.signedOutTrimEvery) {
        this.newSignedOutGroupsSinceTrim = 0;
        await trimSignedOutErrorLogs(this.db, anonymousRowsMax(this.limits.maxRows) - this.signedOutTrimEvery);
      }
    }
    if (created) {
      this.newGroupsSinceTrim += 1;
      if (this.newGroupsSinceTrim >= this.trimEvery) {
        this.newGroupsSinceTrim = 0;
        await trimErrorLogs(this.db, this.limits.maxRows - this.trimEvery);
      }
    }
    // The admin's open panel refreshes its lists; an admin-only event, so members' streams never see it.
    await this.events.publish({ type: 'error-logs.changed' });
    return id;
  }

  async list(options: { unresolvedOnly: boolean }): Promise<ErrorLogEntry[]> {
    return (await listErrorLogs(this.db, { unresolvedOnly: options.unresolvedOnly, limit: ERROR_LIST_LIMIT })).map(presentErrorLog);
  }

  /** Resolving is the admin role alone (the product's call carries no password); it is audited. */
  async resolve(admin: MemberRow, context: { ip: string }, id: number, now = Date.now()): Promise<ErrorLogEntry> {
    const row = await resolveErrorLog(this.db, id, admin.full_name, now);
    if (row === undefined) throw notFound('No such error log entry', ERROR_CODES.errorLogNotFound);
    await audit(this.db, { event: 'admin-action', outcome: 'success', actorName: admin.full_name, ip: context.ip, detail: `resolve error log ${id}` });
    await this.events.publish({ type: 'error-logs.changed' });
    return presentErrorLog(row);
  }

  /** The periodic clean-up: resolved rows past their retention, and the cap (other instances insert too). */
  async sweep(now = Date.now()): Promise<void> {
    await deleteResolvedBefore(this.db, now - this.limits.resolvedRetentionMs);
    await trimSignedOutErrorLogs(this.db, anonymousRowsMax(this.limits.maxRows));
    await trimErrorLogs(this.db, this.limits.maxRows);
  }
}
