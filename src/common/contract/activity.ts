import { z } from 'zod';
import { ACTIVITY_LIMITS, ACTIVITY_TYPES, CLIENT_ACTIVITY_TYPES, activityRoutes, analyticsRoutes } from '../api/activity.js';
import { NAME_MAX_LENGTH } from '../limits.js';

export const activityTypeSchema = z.enum(ACTIVITY_TYPES);
export type ActivityType = z.infer<typeof activityTypeSchema>;

export const activitySyncRequestSchema = z.strictObject({
  activeTime: z.number().int('activeTime must be whole seconds').min(0).max(ACTIVITY_LIMITS.maxSyncSeconds, `activeTime must be at most ${ACTIVITY_LIMITS.maxSyncSeconds} seconds`),
});
export type ActivitySyncRequest = z.infer<typeof activitySyncRequestSchema>;

/** How much of the sync was added (0 past the per-minute budget) and the member's total since the start. */
export const activitySyncResultSchema = z.object({ countedSeconds: z.number().int().min(0), totalActiveTime: z.number().int().min(0) });
export type ActivitySyncResult = z.infer<typeof activitySyncResultSchema>;

/** A page view's details: JSON text of `{ "path": "/…" }`, at most 2 KB. */
const pageViewDetailsValueSchema = z.strictObject({ path: z.string().startsWith('/').max(ACTIVITY_LIMITS.pagePathChars) });
const detailsSchema = z
  .string()
  .refine((text) => new TextEncoder().encode(text).length <= ACTIVITY_LIMITS.detailsBytes, `details must be at most ${ACTIVITY_LIMITS.detailsBytes} bytes`)
  .refine((text) => {
    try {
      return pageViewDetailsValueSchema.safeParse(JSON.parse(text)).success;
    } catch {
      return false;
    }
  }, `details must be JSON text of {"path": "/…"} (a path of at most ${ACTIVITY_LIMITS.pagePathChars} characters)`);

/** What the client may log: a page view. Sign-ins, comments, votes and generations the server logs itself. */
export const activityLogRequestSchema = z.strictObject({
  activityType: z.enum(CLIENT_ACTIVITY_TYPES, { error: `activityType must be one of: ${CLIENT_ACTIVITY_TYPES.join(', ')}` }),
  details: detailsSchema.optional(),
});
export type ActivityLogRequest = z.infer<typeof activityLogRequestSchema>;

/** The stored entry's id (201); null (200) when the same page was logged just before and is not stored again. */
export const activityLogAcceptedSchema = z.object({ id: z.number().int().positive().nullable() });
export type ActivityLogAccepted = z.infer<typeof activityLogAcceptedSchema>;

/** A member's figures: sign-ins, comments, votes cast and active time. Times are seconds; lastLogin is null before a first sign-in. */
export const analyticsUserSchema = z.object({
  memberName: z.string(),
  totalLogins: z.number().int().min(0),
  totalComments: z.number().int().min(0),
  totalVotes: z.number().int().min(0),
  totalActiveTime: z.number().int().min(0),
  lastLogin: z.iso.datetime().nullable(),
});
export type AnalyticsUser = z.infer<typeof analyticsUserSchema>;

/** A session seen in the last five minutes; `id` is an opaque handle, never the session's token or its hash. */
export const activeSessionEntrySchema = z.object({ id: z.string(), memberName: z.string(), loginTime: z.iso.datetime(), lastSeen: z.iso.datetime() });
export type ActiveSessionEntry = z.infer<typeof activeSessionEntrySchema>;

export const activityLogEntrySchema = z.object({ id: z.number().int().positive(), activityType: z.string(), timestamp: z.iso.datetime(), details: z.string().nullable() });
export type ActivityLogEntry = z.infer<typeof activityLogEntrySchema>;

export const teamActivityEntrySchema = activityLogEntrySchema.extend({ memberName: z.string() });
export type TeamActivityEntry = z.infer<typeof teamActivityEntrySchema>;

export const dayTotalsSchema = z.object({
  /** YYYY-MM-DD, UTC. */
  day: z.string(),
  comments: z.number().int().min(0),
  votes: z.number().int().min(0),
  activeTime: z.number().int().min(0),
});
export type DayTotals = z.infer<typeof dayTotalsSchema>;

/** One entry per day, oldest first, every day of the span present (zeros included). */
export const dailyTotalsSchema = z.object({ days: z.array(dayTotalsSchema) });
export type DailyTotals = z.infer<typeof dailyTotalsSchema>;

export const memberAnalyticsSchema = z.object({
  user: analyticsUserSchema,
  recentActivity: z.array(activityLogEntrySchema),
  daily: z.array(dayTotalsSchema),
});
export type MemberAnalytics = z.infer<typeof memberAnalyticsSchema>;

/** Who commented on or voted on each commentable component. */
export const coverageMatrixSchema = z.object({
  members: z.array(z.string()),
  components: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      comments: z.number().int().min(0),
      /** Per member, in the order of `members`: what they did on this component. */
      cells: z.array(z.object({ comments: z.number().int().min(0), votes: z.number().int().min(0) })),
    }),
  ),
});
export type CoverageMatrix = z.infer<typeof coverageMatrixSchema>;

export const memberNameParamsSchema = z.strictObject({ memberName: z.string().trim().min(1).max(NAME_MAX_LENGTH) });

export const activityContract = {
  sync: { ...activityRoutes.sync, body: activitySyncRequestSchema, response: { 200: activitySyncResultSchema } },
  log: { ...activityRoutes.log, body: activityLogRequestSchema, response: { 200: activityLogAcceptedSchema, 201: activityLogAcceptedSchema } },
} as const;

export const analyticsContract = {
  users: { ...analyticsRoutes.users, response: { 200: z.array(analyticsUserSchema) } },
  activeSessions: { ...analyticsRoutes.activeSessions, response: { 200: z.array(activeSessionEntrySchema) } },
  user: { ...analyticsRoutes.user, params: memberNameParamsSchema, response: { 200: memberAnalyticsSchema } },
  daily: { ...analyticsRoutes.daily, response: { 200: dailyTotalsSchema } },
  activity: { ...analyticsRoutes.activity, response: { 200: z.array(teamActivityEntrySchema) } },
  coverage: { ...analyticsRoutes.coverage, response: { 200: coverageMatrixSchema } },
} as const;
