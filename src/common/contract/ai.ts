import { z } from 'zod';
import { AI_PROMPT_MAX_LENGTH, MAX_ROW_ID, STATUS_REASON_MAX_LENGTH } from '../limits.js';
import { TEXT_RULE_MESSAGES, hasForbiddenControls } from '../text-rules.js';
import { NARRATIVE_PROMPT_NAME, PROMPT_HISTORY_PAGE, SUGGESTIONS_PLACEHOLDER, aiPromptRoutes } from '../api/ai-prompts.js';
import { commentRoutes } from '../api/comments.js';
import { SUGGESTION_STATUSES, suggestionRoutes } from '../api/suggestions.js';
import { adminPasswordInputSchema, adminPasswordSchema } from './admin.js';
import { componentIdSchema } from './architecture.js';
import { commentVoteSchema, idParamsSchema, voteRequestSchema, voteTypeSchema } from './comments.js';
import { decisionSchema } from './decisions.js';

/**
 * The three AI products (comment summary, suggestions, narrative summary), with what the server
 * adds to each: the ids behind every claim (`sources`) and who made it (`generatedBy`).
 * The *output* schemas are what a provider must produce (the `openai` provider's answer is parsed
 * with them, but for a summary's `setAside`, which is the analyzer's and never a model's); the
 * *response* schemas add what the server knows (counts, the stamp, fallback).
 */

export const AI_PROVIDERS = ['local', 'openai'] as const;
export type AiProviderName = (typeof AI_PROVIDERS)[number];

const idSchema = z.number().int().positive();
const idsSchema = z.array(idSchema);
export const prioritySchema = z.enum(['high', 'medium', 'low']);
export type Priority = z.infer<typeof prioritySchema>;
export const recommendationTypeSchema = z.enum(['content', 'structural']);

/** Who made an output from what: the same stamp means the same answer (outputs are cached by it). */
export const generatedBySchema = z.object({
  provider: z.enum(AI_PROVIDERS),
  model: z.string(),
  promptVersion: z.string(),
  /** sha256 (hex) of the input the output was made from. */
  inputHash: z.string().regex(/^[0-9a-f]{64}$/),
  generatedAt: z.iso.datetime(),
});
export type GeneratedBy = z.infer<typeof generatedBySchema>;

/** Set when the configured provider failed and the local analyzer answered instead; the UI shows the notice. */
const fallbackFields = {
  fallback: z.boolean(),
  notice: z.string().optional(),
};

/**
 * Set when an AI call read less than all there was (the server's analysis bounds): how many
 * comments it read of how many, and how many of those it read only the beginning of.
 */
export const analysisSampleSchema = z.object({
  read: z.number().int().nonnegative(),
  of: z.number().int().nonnegative(),
  shortened: z.number().int().nonnegative(),
});
export type AnalysisSample = z.infer<typeof analysisSampleSchema>;

// ---------------------------------------------------------------- comment summary

const text = (max: number) => z.string().trim().max(max);

/** At most as many as the comments one summary reads (ANALYSIS_BOUNDS.commentsPerComponent on the server). */
export const SET_ASIDE_MAX = 300;

/** A comment the summary did not read, and why, in words a member reads. */
export const setAsideSchema = z.strictObject({ id: idSchema, reason: text(160).min(1) });
export type SetAside = z.infer<typeof setAsideSchema>;

/** What a model writes of a summary: everything but the comments set aside. */
export const commentSummaryTextSchema = z.strictObject({
  confidence: z.number().min(0).max(1),
  understanding: text(2_000),
  contentChanges: text(2_000),
  structuralChanges: text(2_000),
  keyThemes: z.array(text(200).min(1)).max(8),
  /** Comment ids: `keyThemes[i]` came from `sources.keyThemes[i]`. */
  sources: z.strictObject({
    keyThemes: z.array(idsSchema),
    contentChanges: idsSchema,
    structuralChanges: idsSchema,
  }),
});

export const commentSummaryOutputSchema = commentSummaryTextSchema.extend({
  /**
   * The comments left out (addressed to the AI, or about something else), by comment id:
   * always the built-in analyzer's finding, whichever provider wrote the text, so a model can
   * neither hide a comment by setting it aside nor take one back.
   */
  setAside: z.array(setAsideSchema).max(SET_ASIDE_MAX),
});
export type CommentSummaryOutput = z.infer<typeof commentSummaryOutputSchema>;

/**
 * What the team has settled on a component, added by the server (never a model's words): the
 * current decision, and the comments the summary does not read as open points because they are
 * resolved or the decision rests on them.
 */
export const summaryOutcomeSchema = z.object({
  decision: decisionSchema.nullable(),
  settledIds: idsSchema,
  /** How many of the settled comments are resolved (the rest are only cited by the decision). */
  resolvedCount: z.number().int().nonnegative(),
});
export type SummaryOutcome = z.infer<typeof summaryOutcomeSchema>;

export const commentSummarySchema = commentSummaryOutputSchema.extend({
  componentId: z.string(),
  outcome: summaryOutcomeSchema,
  /**
   * The component's comments when it was made, newest first (the panel compares them with what it
   * shows); with `sample`, only `sample.read` of them were read.
   */
  commentIds: idsSchema,
  sample: analysisSampleSchema.optional(),
  generatedBy: generatedBySchema,
  ...fallbackFields,
});
export type CommentSummary = z.infer<typeof commentSummarySchema>;

export const commentSummaryParamsSchema = z.strictObject({ componentId: componentIdSchema });
/** The client sends the component's title; the server uses its own copy of it and only bounds this one. */
export const commentSummaryQuerySchema = z.strictObject({
  title: z
    .string()
    .max(200)
    .refine((title) => !hasForbiddenControls(title, { multiline: false }), `title ${TEXT_RULE_MESSAGES.control}`)
    .optional(),
});

// ---------------------------------------------------------------- suggestions

export const suggestionOutputSchema = z.strictObject({
  suggestion: text(600).min(1),
  recommendationType: recommendationTypeSchema,
  /** The comments it follows from; at least one. */
  sources: idsSchema.min(1),
});
export type SuggestionOutput = z.infer<typeof suggestionOutputSchema>;

export const suggestionsOutputSchema = z.strictObject({
  suggestions: z.array(suggestionOutputSchema).max(60),
});
export type SuggestionsOutput = z.infer<typeof suggestionsOutputSchema>;

/** What the member who asked may do with a suggestion: the server's policies decide, the client only reads. */
export const suggestionPermissionsSchema = z.object({ canSetStatus: z.boolean(), canAssign: z.boolean(), canComplete: z.boolean() });
export type SuggestionPermissions = z.infer<typeof suggestionPermissionsSchema>;

/** A suggestion, with the comments it follows from; `mine` (its action is the asking member's) and `permissions` are for the member who asked. */
export const suggestionSchema = z.object({
  id: idSchema,
  suggestion: z.string(),
  /** Component ids, from its source comments. */
  components: z.array(z.string()),
  recommendationType: recommendationTypeSchema,
  /** Initials of the members whose comments it follows from. */
  memberInitials: z.array(z.string()),
  votes: z.array(commentVoteSchema),
  sources: idsSchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** Where it stands, why it was declined (else null), who set it and when (null while open and never set). */
  status: z.enum(SUGGESTION_STATUSES),
  statusReason: z.string().nullable(),
  statusBy: z.string().nullable(),
  statusAt: z.iso.datetime().nullable(),
  /** The action's owner (a member's full name) and due day (YYYY-MM-DD), once accepted and assigned. */
  owner: z.string().nullable(),
  dueDate: z.string().nullable(),
  mine: z.boolean(),
  permissions: suggestionPermissionsSchema,
});
export type Suggestion = z.infer<typeof suggestionSchema>;

/** A reason: required when declining, at most 500 characters, trimmed. */
const reasonSchema = z
  .string()
  .refine((text) => !hasForbiddenControls(text, { multiline: true }), `Reason ${TEXT_RULE_MESSAGES.control}`)
  .transform((text) => text.trim())
  .pipe(z.string().max(STATUS_REASON_MAX_LENGTH, `Reason cannot be longer than ${STATUS_REASON_MAX_LENGTH} characters`));

export const setSuggestionStatusSchema = z
  .strictObject({
    status: z.enum(SUGGESTION_STATUSES, { error: `status must be one of ${SUGGESTION_STATUSES.join(', ')}` }),
    reason: reasonSchema.optional(),
    adminPassword: adminPasswordSchema,
  })
  .refine((input) => input.status !== 'declined' || (input.reason ?? '') !== '', { message: 'Declining a suggestion needs a reason', path: ['reason'] });
export type SetSuggestionStatusInput = z.input<typeof setSuggestionStatusSchema>;

/** A calendar day that exists: 2026-02-30 is refused. */
export const dueDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'dueDate must be a day written YYYY-MM-DD')
  .refine((day) => {
    const date = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
  }, 'dueDate is not a day of the calendar');

export const assignSuggestionSchema = z.strictObject({
  ownerName: z.string({ error: 'ownerName is required' }).trim().min(1, 'ownerName is required').max(200),
  dueDate: dueDateSchema.nullable().default(null),
  adminPassword: adminPasswordSchema,
});
export type AssignSuggestionInput = z.input<typeof assignSuggestionSchema>;

export const generateSuggestionsResponseSchema = z.object({
  suggestions: z.array(suggestionSchema),
  /** How many comments the generation read. */
  commentCount: z.number().int().nonnegative(),
  /** Set when it read a sample of the review's comments (known to the instance that ran it). */
  sample: analysisSampleSchema.optional(),
  /** True when a generation had just run (at most one per 10 s) and its result is answered again. */
  reused: z.boolean(),
  created: z.number().int().nonnegative(),
  kept: z.number().int().nonnegative(),
  archived: z.number().int().nonnegative(),
  generatedBy: generatedBySchema,
  ...fallbackFields,
});
export type GenerateSuggestionsResponse = z.infer<typeof generateSuggestionsResponseSchema>;

export const suggestionVoteResultSchema = z.object({ suggestionId: idSchema, myVote: voteTypeSchema.nullable() });
export type SuggestionVoteResult = z.infer<typeof suggestionVoteResultSchema>;

// ---------------------------------------------------------------- narrative summary

export const narrativeOutputSchema = z.strictObject({
  confidence: z.number().min(0).max(1),
  overallConsensus: text(2_000),
  keyThemes: z
    .array(
      z.strictObject({
        theme: text(200).min(1),
        description: text(1_000),
        priority: prioritySchema,
        netVotes: z.number().int(),
        /** Suggestion ids. */
        sources: idsSchema,
      }),
    )
    .max(12),
  actionItems: z
    .array(z.strictObject({ action: text(600).min(1), priority: prioritySchema, reasoning: text(1_000), sources: idsSchema }))
    .max(12),
  conflicts: z
    .array(z.strictObject({ topic: text(200).min(1), description: text(1_000), suggestedResolution: text(1_000), sources: idsSchema }))
    .max(12),
});
export type NarrativeOutput = z.infer<typeof narrativeOutputSchema>;

/**
 * What the review has settled, added by the server to the narrative (never a model's words): each
 * decided component's current decision, and what the reading left out as no longer open.
 */
export const reviewOutcomeSchema = z.object({
  decisions: z.array(decisionSchema),
  /** Suggestions with a status other than open, or that a decision rests on: not read as live themes, actions or conflicts. */
  settledSuggestionCount: z.number().int().nonnegative(),
  /** Source comments that are resolved or that a decision rests on: not read as live disagreement. */
  settledCommentCount: z.number().int().nonnegative(),
});
export type ReviewOutcome = z.infer<typeof reviewOutcomeSchema>;

export const narrativeSummarySchema = narrativeOutputSchema.extend({
  suggestionCount: z.number().int().nonnegative(),
  outcome: reviewOutcomeSchema,
  /** Set when it read a sample of the comments the suggestions follow from. */
  sample: analysisSampleSchema.optional(),
  generatedBy: generatedBySchema,
  ...fallbackFields,
});
export type NarrativeSummary = z.infer<typeof narrativeSummarySchema>;

// ---------------------------------------------------------------- prompts


export const aiPromptSchema = z.object({
  id: idSchema,
  name: z.string(),
  prompt: z.string(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  createdBy: z.string(),
  createdAt: z.iso.datetime(),
});
export type AiPrompt = z.infer<typeof aiPromptSchema>;

/**
 * A version in the history: `prompt` holds its first PROMPT_PREVIEW_LENGTH characters only (40
 * whole versions made 606 KB), `promptLength` the length of the whole text (GET /api/ai-prompts/:id).
 */
export const aiPromptListItemSchema = aiPromptSchema.extend({ promptLength: z.number().int().nonnegative() });
export type AiPromptListItem = z.infer<typeof aiPromptListItemSchema>;

const pageNumber = (what: string, max: number) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,11}$/, `${what} must be a whole number from 1`)
    .transform(Number)
    .refine((value) => value <= max, `${what} must be at most ${max}`);

export const promptHistoryQuerySchema = z.strictObject({
  // An id: above MAX_ROW_ID it would fail the query on PostgreSQL.
  before: pageNumber('before', MAX_ROW_ID).optional(),
  limit: pageNumber('limit', PROMPT_HISTORY_PAGE.maxLimit).optional(),
});

export const createAiPromptSchema = z.strictObject({
  name: z.literal(NARRATIVE_PROMPT_NAME, { error: `name must be '${NARRATIVE_PROMPT_NAME}'` }),
  prompt: z
    .string()
    .refine((text) => !hasForbiddenControls(text, { multiline: true }), `Prompt ${TEXT_RULE_MESSAGES.control}`)
    .trim()
    .min(1, 'Prompt cannot be empty')
    .max(AI_PROMPT_MAX_LENGTH, `Prompt cannot be longer than ${AI_PROMPT_MAX_LENGTH} characters`)
    .refine((prompt) => prompt.includes(SUGGESTIONS_PLACEHOLDER), `The prompt must contain ${SUGGESTIONS_PLACEHOLDER}, where the suggestions go`),
  description: z
    .string()
    .refine((text) => !hasForbiddenControls(text, { multiline: true }), `Description ${TEXT_RULE_MESSAGES.control}`)
    .trim()
    .max(500, 'Description cannot be longer than 500 characters')
    .optional(),
  adminPassword: adminPasswordSchema,
  /** Clients send 1; a saved prompt always becomes the active one. */
  isActive: z.union([z.literal(1), z.literal(true)]).optional(),
});
export type CreateAiPromptInput = z.input<typeof createAiPromptSchema>;

export const activateAiPromptSchema = adminPasswordInputSchema;
export type ActivateAiPromptInput = z.infer<typeof activateAiPromptSchema>;

// ---------------------------------------------------------------- calls

export const aiContract = {
  commentSummary: { ...commentRoutes.summary, params: commentSummaryParamsSchema, querystring: commentSummaryQuerySchema, response: { 200: commentSummarySchema } },
  generateSuggestions: { ...suggestionRoutes.generate, response: { 200: generateSuggestionsResponseSchema } },
  suggestionsWithVotes: { ...suggestionRoutes.withVotes, response: { 200: z.array(suggestionSchema) } },
  voteSuggestion: { ...suggestionRoutes.vote, params: idParamsSchema, body: voteRequestSchema, response: { 200: suggestionVoteResultSchema } },
  setSuggestionStatus: { ...suggestionRoutes.setStatus, params: idParamsSchema, body: setSuggestionStatusSchema, response: { 200: suggestionSchema } },
  assignSuggestion: { ...suggestionRoutes.assign, params: idParamsSchema, body: assignSuggestionSchema, response: { 200: suggestionSchema } },
  completeSuggestion: { ...suggestionRoutes.complete, params: idParamsSchema, response: { 200: suggestionSchema } },
  narrativeSummary: { ...suggestionRoutes.narrativeSummary, response: { 200: narrativeSummarySchema } },
  prompts: { ...aiPromptRoutes.list, querystring: promptHistoryQuerySchema, response: { 200: z.array(aiPromptListItemSchema) } },
  prompt: { ...aiPromptRoutes.get, params: idParamsSchema, response: { 200: aiPromptSchema } },
  activePrompt: { ...aiPromptRoutes.active, response: { 200: aiPromptSchema } },
  createPrompt: { ...aiPromptRoutes.create, body: createAiPromptSchema, response: { 201: aiPromptSchema } },
  activatePrompt: { ...aiPromptRoutes.activate, params: idParamsSchema, body: activateAiPromptSchema, response: { 200: aiPromptSchema } },
} as const;
