/**
 * Bounds on everything a client can send. The server rejects input past them; the client
 * trims its own reports to them first so a legitimate report is never refused for size.
 */
export const ERROR_REPORT_LIMITS = {
  bodyBytes: 8 * 1024,
  message: 2000,
  stack: 4000,
  url: 2048,
  userAgent: 512,
  perMinutePerIp: 30,
} as const;

/**
 * The largest row id: ids are PostgreSQL `integer`s, and a larger number compared with one fails
 * the query there (a 500) where SQLite matches nothing. Every id a client sends is bounded by it.
 */
export const MAX_ROW_ID = 2 ** 31 - 1;

export const NAME_MAX_LENGTH = 100;
export const COMMENT_MAX_LENGTH = 5000;
/** A resolved comment's note: a line or two on how the point was dealt with. */
export const RESOLUTION_NOTE_MAX_LENGTH = 500;
/** Why a component was decided as it was: a paragraph or two. */
export const DECISION_RATIONALE_MAX_LENGTH = 2000;
/** Why a suggestion was declined. */
export const STATUS_REASON_MAX_LENGTH = 500;

/** The narrative-summary prompt an admin saves; long enough for a detailed template. */
export const AI_PROMPT_MAX_LENGTH = 20_000;

/**
 * Per-member limits that keep one member from stalling everyone (the analyzer is the costly part).
 * Comments a minute is configurable (COMMENT_LIMIT_PER_MINUTE). A summary or narrative counts only
 * when it is not cached (a new one must be made); those come after a change, so the limits are far
 * above what the pages ask for.
 */
export const MEMBER_LIMITS = {
  commentsPerMinute: 30,
  summariesPerMinute: 60,
  narrativesPerMinute: 30,
  generationsPerMinute: 6,
} as const;
