import { z } from 'zod';
import { COMMENT_MAX_LENGTH, MAX_ROW_ID } from '../limits.js';
import { TEXT_RULE_MESSAGES, hasForbiddenControls, withoutZeroWidth } from '../text-rules.js';
import { COMMENT_KINDS, VOTE_TYPES, commentRoutes } from '../api/comments.js';
import { componentIdSchema } from './architecture.js';

export const voteTypeSchema = z.enum(VOTE_TYPES, { error: 'voteType must be thumbs_up or thumbs_down' });
export type VoteType = z.infer<typeof voteTypeSchema>;

export const commentKindSchema = z.enum(COMMENT_KINDS);
export type CommentKind = z.infer<typeof commentKindSchema>;

/** A member's vote on a comment. */
export const commentVoteSchema = z.object({ memberName: z.string(), voteType: voteTypeSchema });
export type CommentVote = z.infer<typeof commentVoteSchema>;

/** A comment on a component, with its kind (a plain comment or a change proposal). */
export const commentSchema = z.object({
  id: z.number().int().positive(),
  componentId: z.string(),
  kind: commentKindSchema,
  content: z.string(),
  memberName: z.string(),
  createdAt: z.iso.datetime(),
  votes: z.array(commentVoteSchema),
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

export const commentCountsSchema = z.record(z.string(), z.number().int().nonnegative());
export type CommentCounts = z.infer<typeof commentCountsSchema>;

/** The comment calls with their schemas (the summary's are with the other AI outputs). */
export const commentsContract = {
  withVotes: { ...commentRoutes.withVotes, params: componentParamsSchema, response: { 200: z.array(commentSchema) } },
  counts: { ...commentRoutes.counts, response: { 200: commentCountsSchema } },
  create: { ...commentRoutes.create, body: createCommentSchema, response: { 201: commentSchema } },
  remove: { ...commentRoutes.remove, params: idParamsSchema },
  vote: { ...commentRoutes.vote, params: idParamsSchema, body: voteRequestSchema, response: { 200: voteResultSchema } },
} as const;
