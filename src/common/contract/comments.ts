import { z } from 'zod';
import { COMMENT_MAX_LENGTH, MAX_ROW_ID, RESOLUTION_NOTE_MAX_LENGTH } from '../limits.js';
import { TEXT_RULE_MESSAGES, hasForbiddenControls, withoutZeroWidth } from '../text-rules.js';
import { COMMENT_KINDS, VOTE_TYPES, commentRoutes } from '../api/comments.js';
import { DECISION_OUTCOMES } from '../api/decisions.js';
import { componentIdSchema } from './architecture.js';

export const voteTypeSchema = z.enum(VOTE_TYPES, { error: 'voteType must be thumbs_up or thumbs_down' });
export type VoteType = z.infer<typeof voteTypeSchema>;

export const commentKindSchema = z.enum(COMMENT_KINDS);
export type CommentKind = z.infer<typeof commentKindSchema>;

/** A member's vote on a comment. */
export const commentVoteSchema = z.object({ memberName: z.string(), voteType: voteTypeSchema });
export type CommentVote = z.infer<typeof commentVoteSchema>;

/** Who marked a comment resolved, when, and why (the note is optional). */
const commentResolutionSchema = z.object({ by: z.string(), at: z.iso.datetime(), note: z.string().nullable() });

/** What the member who asked may do with a comment: the server's policies decide, the client only reads. */
export const commentPermissionsSchema = z.object({ canResolve: z.boolean(), canReopen: z.boolean(), canDelete: z.boolean() });
export type CommentPermissions = z.infer<typeof commentPermissionsSchema>;

/**
 * A comment on a component, with its kind (a plain comment or a change proposal); `resolution` is
 * null while it is open. `mine` and `permissions` are for the member who asked.
 */
export const commentSchema = z.object({
  id: z.number().int().positive(),
  componentId: z.string(),
  kind: commentKindSchema,
  content: z.string(),
  memberName: z.string(),
  createdAt: z.iso.datetime(),
  votes: z.array(commentVoteSchema),
  resolution: commentResolutionSchema.nullable(),
  mine: z.boolean(),
  permissions: commentPermissionsSchema,
});
export type Comment = z.infer<typeof commentSchema>;

/** The `:id` of a row (a comment, a suggestion, a member…): decimal digits only ('1e3' or '0x10' are not ids). */
export const idParamsSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'id must be a positive whole number')
    .transform(Number)
    .refine((id) => id <= MAX_ROW_ID, 'id is too large'),
});
export const componentParamsSchema = z.strictObject({ componentId: componentIdSchema });

export const createCommentSchema = z.strictObject({
  componentId: componentIdSchema,
  // Controls are refused as sent; zero-width characters are dropped before the emptiness check.
  content: z
    .string()
    .refine((text) => !hasForbiddenControls(text, { multiline: true }), `Comment ${TEXT_RULE_MESSAGES.control}`)
    .transform(withoutZeroWidth)
    .pipe(
      z
        .string()
        .trim()
        .min(1, 'Comment cannot be empty')
        .max(COMMENT_MAX_LENGTH, `Comment cannot be longer than ${COMMENT_MAX_LENGTH} characters`),
    ),
  kind: commentKindSchema.default('comment'),
});
export type CreateCommentInput = z.input<typeof createCommentSchema>;

export const voteRequestSchema = z.strictObject({ voteType: voteTypeSchema });
export type VoteRequest = z.infer<typeof voteRequestSchema>;

/** The member's vote after the call: the same vote again removes it (null), the other replaces it. */
export const voteResultSchema = z.object({
  commentId: z.number().int().positive(),
  componentId: z.string(),
  myVote: voteTypeSchema.nullable(),
});
export type VoteResult = z.infer<typeof voteResultSchema>;

/** Resolving a comment: a note on how it was dealt with, or none (blank is none). */
export const resolveCommentSchema = z.strictObject({
  note: z
    .string()
    .refine((text) => !hasForbiddenControls(text, { multiline: true }), `Note ${TEXT_RULE_MESSAGES.control}`)
    .transform(withoutZeroWidth)
    .pipe(z.string().trim().max(RESOLUTION_NOTE_MAX_LENGTH, `Note cannot be longer than ${RESOLUTION_NOTE_MAX_LENGTH} characters`))
    .optional(),
});
export type ResolveCommentInput = z.input<typeof resolveCommentSchema>;

const count = z.number().int().nonnegative();

/**
 * How far the review is, in the one answer every page reads: per component with comments or a
 * decision, its open and resolved comments and current decision; and the actions (accepted
 * suggestions) with how many are done.
 */
export const commentCountsSchema = z.object({
  components: z.record(z.string(), z.object({ open: count, resolved: count, decision: z.enum(DECISION_OUTCOMES).nullable() })),
  actions: z.object({ total: count, done: count }),
});
export type CommentCounts = z.infer<typeof commentCountsSchema>;

/** The comment calls with their schemas (the summary's are with the other AI outputs). */
export const commentsContract = {
  withVotes: { ...commentRoutes.withVotes, params: componentParamsSchema, response: { 200: z.array(commentSchema) } },
  counts: { ...commentRoutes.counts, response: { 200: commentCountsSchema } },
  create: { ...commentRoutes.create, body: createCommentSchema, response: { 201: commentSchema } },
  remove: { ...commentRoutes.remove, params: idParamsSchema },
  vote: { ...commentRoutes.vote, params: idParamsSchema, body: voteRequestSchema, response: { 200: voteResultSchema } },
  resolve: { ...commentRoutes.resolve, params: idParamsSchema, body: resolveCommentSchema, response: { 200: commentSchema } },
  reopen: { ...commentRoutes.reopen, params: idParamsSchema, response: { 200: commentSchema } },
} as const;
