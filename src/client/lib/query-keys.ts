import { authRoutes } from '../../common/api/auth';

/**
 * Every query key of the client, in one place. Keys of one area share a root, so the live stream's
 * catch-up after a drop can refetch a whole area at once.
 */
export const queryKeys = {
  /** The current member; keyed by its path, as every screen's first question. */
  user: [authRoutes.user.path] as const,
  checkSession: ['check-session'] as const,
  enrollment: ['enrollment'] as const,
  teamNamesRoot: ['team-member-names'] as const,
  teamNames: (proof: string | null) => ['team-member-names', proof] as const,
  architecture: ['architecture'] as const,
  commentsRoot: ['comments'] as const,
  comments: (componentId: string) => ['comments', 'with-votes', componentId] as const,
  commentCounts: ['comments', 'counts'] as const,
  /** A component's decisions; under the comments root, so a resync refetches them too. */
  decisions: (componentId: string) => ['comments', 'decisions', componentId] as const,
  /**
   * Not under the comments' root on purpose: a live event, or the catch-up after a drop, refetches
   * comment lists, and a summary may cost a model call; the panel offers a refresh instead.
   */
  commentSummary: (componentId: string) => ['comment-summary', componentId] as const,
  suggestionsRoot: ['suggestions'] as const,
  suggestions: ['suggestions', 'with-votes'] as const,
  narrativeSummary: ['suggestions', 'narrative-summary'] as const,
  /** Whom a member asks for admin help (the panel's 'Access Denied' text). */
  adminContact: ['admin-contact'] as const,
  /** The admin panel's data, under one root so a stream drop refetches all of it. */
  adminRoot: ['admin'] as const,
  adminMembers: ['admin', 'members'] as const,
  /** The members an admin can make an action's owner; under the members' key, dropped with it. */
  assignableMembers: ['admin', 'members', 'assignable'] as const,
  pinResets: ['admin', 'pin-resets'] as const,
  errorLogsRoot: ['admin', 'errors'] as const,
  errorLogs: ['admin', 'errors', 'all'] as const,
  unresolvedErrors: ['admin', 'errors', 'unresolved'] as const,
  qaResults: ['admin', 'qa', 'results'] as const,
  qaProgress: ['admin', 'qa', 'progress'] as const,
  promptsRoot: ['admin', 'prompts'] as const,
  prompts: ['admin', 'prompts', 'all'] as const,
  activePrompt: ['admin', 'prompts', 'active'] as const,
  auditRoot: ['admin', 'audit'] as const,
  audit: (filter: { member?: string | undefined; event?: string | undefined; page: number }) => ['admin', 'audit', filter] as const,
  system: ['admin', 'system'] as const,
  /** The analytics page's data: fetched again on every visit (no live event names it). */
  analyticsUsers: ['analytics', 'users'] as const,
  analyticsMember: (memberName: string) => ['analytics', 'member', memberName] as const,
  analyticsDaily: ['analytics', 'daily'] as const,
  activeSessions: ['analytics', 'sessions', 'active'] as const,
  teamActivity: ['analytics', 'activity'] as const,
  reviewCoverage: ['analytics', 'coverage'] as const,
} as const;
