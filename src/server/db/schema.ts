import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { SuggestionReviewStatus } from '../../common/api/suggestions.js';

/**
 * Times are epoch milliseconds in a 64-bit integer column on both engines: the same arithmetic
 * (idle timeouts, windows) works in SQL everywhere and the API formats them as ISO text.
 * Booleans are 0/1 integers for the same reason.
 */
type EpochMs = ColumnType<number, number, number>;

export interface SchemaMigrationsTable {
  name: string;
  applied_at: EpochMs;
}

export interface ErrorLogsTable {
  id: Generated<number>;
  error_type: string;
  message: string;
  stack: string | null;
  severity: string;
  source: string;
  user_agent: string | null;
  url: string | null;
  member_name: string | null;
  ip: string | null;
  created_at: EpochMs;
  resolved: ColumnType<number, number | undefined, number>;
  resolved_at: EpochMs | null;
  resolved_by: string | null;
  /** sha256 of type, message and source: identical reports share one row. */
  group_key: string;
  occurrences: ColumnType<number, number | undefined, number>;
  last_seen_at: EpochMs;
}

export interface RateLimitBucketsTable {
  key: string;
  hits: number;
  reset_at: EpochMs;
}

export interface MembersTable {
  id: Generated<number>;
  full_name: string;
  name_key: string;
  first_name: string;
  last_name: string;
  email: string | null;
  role: 'member' | 'admin';
  pin_hash: string | null;
  active: ColumnType<number, number | undefined, number>;
  created_at: EpochMs;
  pin_set_at: EpochMs | null;
  /** The QA member the self-test signs in as: a real member, left out of analytics and AI inputs. */
  is_qa: ColumnType<number, number | undefined, number>;
  last_sign_in_at: EpochMs | null;
  login_count: ColumnType<number, number | undefined, number>;
}

export interface SessionsTable {
  token_hash: string;
  member_id: number;
  created_at: EpochMs;
  last_seen_at: EpochMs;
  expires_at: EpochMs;
  ip: string | null;
  user_agent: string | null;
}

export interface DeviceTokensTable {
  token_hash: string;
  member_id: number;
  created_at: EpochMs;
  expires_at: EpochMs;
}

export interface EnrollmentTokensTable {
  member_id: number;
  token_hash: string;
  created_at: EpochMs;
  expires_at: EpochMs;
}

export interface LoginLocksTable {
  name_key: string;
  failures: number;
  lock_count: ColumnType<number, number | undefined, number>;
  locked_until: ColumnType<number, number | undefined, number>;
  updated_at: EpochMs;
}

export interface AuditLogTable {
  id: Generated<number>;
  event: string;
  outcome: 'success' | 'failure' | 'locked' | 'info';
  actor_name: string | null;
  ip: string | null;
  detail: string | null;
  created_at: EpochMs;
}

export interface PinResetRequestsTable {
  id: Generated<number>;
  member_id: number;
  member_name: string;
  status: ColumnType<'pending' | 'resolved', 'pending' | 'resolved' | undefined, 'pending' | 'resolved'>;
  requested_at: EpochMs;
  resolved_at: EpochMs | null;
  resolved_by: string | null;
}

export interface CommentsTable {
  id: Generated<number>;
  component_id: string;
  kind: ColumnType<'comment' | 'proposal', 'comment' | 'proposal' | undefined, 'comment' | 'proposal'>;
  content: string;
  member_id: number;
  member_name: string;
  created_at: EpochMs;
  /** Set while the comment is resolved; cleared again when someone reopens it. */
  resolved_at: ColumnType<number | null, number | null | undefined, number | null>;
  resolved_by_name: ColumnType<string | null, string | null | undefined, string | null>;
  resolution_note: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CommentVotesTable {
  comment_id: number;
  member_id: number;
  member_name: string;
  vote_type: 'thumbs_up' | 'thumbs_down';
  created_at: EpochMs;
}

export interface AiPromptsTable {
  id: Generated<number>;
  name: string;
  prompt: string;
  description: string | null;
  is_active: number;
  created_by: string;
  created_at: EpochMs;
}

/** An AI output cached by the hash of its input; `output` is the contract's JSON. */
export interface AiOutputsTable {
  id: Generated<number>;
  kind: 'summary' | 'narrative';
  scope: string;
  input_hash: string;
  output: string;
  provider: string;
  model: string;
  prompt_version: string;
  created_at: EpochMs;
}

export interface SuggestionGenerationsTable {
  id: Generated<number>;
  status: 'running' | 'done' | 'failed';
  started_at: EpochMs;
  finished_at: EpochMs | null;
  requested_by: string;
  comment_count: ColumnType<number, number | undefined, number>;
  created: ColumnType<number, number | undefined, number>;
  kept: ColumnType<number, number | undefined, number>;
  archived: ColumnType<number, number | undefined, number>;
  /** The GeneratedBy stamp as JSON. */
  generated_by: string | null;
  fallback: ColumnType<number, number | undefined, number>;
  notice: string | null;
}

export interface SuggestionsTable {
  id: Generated<number>;
  suggestion: string;
  recommendation_type: 'content' | 'structural';
  /** JSON string arrays / id arrays. */
  components: string;
  member_initials: string;
  sources: string;
  status: ColumnType<'active' | 'archived', 'active' | 'archived' | undefined, 'active' | 'archived'>;
  rank: ColumnType<number, number | undefined, number>;
  generation_id: number;
  created_at: EpochMs;
  updated_at: EpochMs;
  review_status: ColumnType<SuggestionReviewStatus, SuggestionReviewStatus | undefined, SuggestionReviewStatus>;
  status_reason: ColumnType<string | null, string | null | undefined, string | null>;
  status_by_name: ColumnType<string | null, string | null | undefined, string | null>;
  status_at: ColumnType<number | null, number | null | undefined, number | null>;
  owner_member_id: ColumnType<number | null, number | null | undefined, number | null>;
  owner_name: ColumnType<string | null, string | null | undefined, string | null>;
  due_date: ColumnType<string | null, string | null | undefined, string | null>;
  archived_at: EpochMs | null;
}

export interface SuggestionVotesTable {
  suggestion_id: number;
  member_id: number;
  member_name: string;
  vote_type: 'thumbs_up' | 'thumbs_down';
  created_at: EpochMs;
}

export type QaStatus = 'passed' | 'failed' | 'skipped';

export interface QaRunsTable {
  id: Generated<number>;
  /** 'abandoned': its heartbeat stopped (the instance died mid-run); it no longer blocks a new run. */
  status: 'running' | 'done' | 'abandoned';
  run_by: string;
  started_at: EpochMs;
  finished_at: EpochMs | null;
  passed: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
  skipped: ColumnType<number, number | undefined, number>;
  total_suites: ColumnType<number, number | undefined, number>;
  completed_suites: ColumnType<number, number | undefined, number>;
  /** The suite being checked now; null before the first and after the last. */
  current_suite: string | null;
  /** Moved at every suite and check of a running run. */
  heartbeat_at: EpochMs;
}

export interface QaResultsTable {
  id: Generated<number>;
  run_id: number;
  position: number;
  test_name: string;
  test_suite: string;
  status: QaStatus;
  duration_ms: number;
  run_by: string;
  /** Why a check failed or was skipped; null when it passed. */
  reason: string | null;
}

export interface ActivityLogTable {
  id: Generated<number>;
  member_id: number;
  activity_type: string;
  /** JSON text from the client, at most 2 KB; shown as text, never parsed as markup. */
  details: string | null;
  created_at: EpochMs;
}

/** Days are whole days since the epoch (UTC). */
export interface ActivityTimeTable {
  member_id: number;
  day: number;
  active_seconds: number;
}

/** How far a member's counted active time reaches (epoch ms), and what the last sync added. */
export interface ActivityClockTable {
  member_id: number;
  counted_until: EpochMs;
  last_credit: number;
}

/** Activity log rows past the retention, counted per member, day and type before they are deleted. */
export interface ActivityDailyTable {
  member_id: number;
  day: number;
  activity_type: string;
  entries: number;
}

export interface IdempotencyKeysTable {
  member_id: number;
  idempotency_key: string;
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  created_at: EpochMs;
}

/** Kept by triggers on `comments`: never written by the app. */
export interface CommentCountsTable {
  component_id: string;
  comment_count: number;
  /** Of those, the resolved ones. */
  resolved_count: ColumnType<number, number | undefined, number>;
}

export interface ComponentDecisionsTable {
  id: Generated<number>;
  component_id: string;
  outcome: 'accepted' | 'accepted_with_changes' | 'needs_rework' | 'deferred';
  rationale: string;
  /** JSON arrays of ids. */
  comment_ids: string;
  suggestion_ids: string;
  decided_by_name: string;
  created_at: EpochMs;
}

export interface StorageProbeTable {
  id: number;
  written_at: EpochMs;
  filler: ColumnType<string, string | undefined, string>;
}

export interface Database {
  comment_counts: CommentCountsTable;
  component_decisions: ComponentDecisionsTable;
  idempotency_keys: IdempotencyKeysTable;
  storage_probe: StorageProbeTable;
  activity_log: ActivityLogTable;
  activity_time: ActivityTimeTable;
  activity_clock: ActivityClockTable;
  activity_daily: ActivityDailyTable;
  qa_runs: QaRunsTable;
  qa_results: QaResultsTable;
  ai_prompts: AiPromptsTable;
  ai_outputs: AiOutputsTable;
  suggestion_generations: SuggestionGenerationsTable;
  suggestions: SuggestionsTable;
  suggestion_votes: SuggestionVotesTable;
  comments: CommentsTable;
  comment_votes: CommentVotesTable;
  members: MembersTable;
  sessions: SessionsTable;
  device_tokens: DeviceTokensTable;
  enrollment_tokens: EnrollmentTokensTable;
  login_locks: LoginLocksTable;
  audit_log: AuditLogTable;
  pin_reset_requests: PinResetRequestsTable;
  schema_migrations: SchemaMigrationsTable;
  error_logs: ErrorLogsTable;
  rate_limit_buckets: RateLimitBucketsTable;
}

export type NewErrorLog = Insertable<ErrorLogsTable>;
export type MemberRow = Selectable<MembersTable>;
