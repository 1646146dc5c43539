import type { CommentSummary } from '../contract/ai.js';
import type { Comment, CommentCounts, CreateCommentInput, ResolveCommentInput, VoteRequest, VoteResult } from '../contract/comments.js';
import { defineRoute } from './route.js';

export const VOTE_TYPES = ['thumbs_up', 'thumbs_down'] as const;
export const COMMENT_KINDS = ['comment', 'proposal'] as const;

/** The comment calls: a component's comments with their votes, counts per component, write, delete, vote, resolve, reopen, AI summary. */
export const commentRoutes = {
  withVotes: defineRoute<{ response: Comment[] }>()('GET', '/api/comments/:componentId/with-votes'),
  counts: defineRoute<{ response: CommentCounts }>()('GET', '/api/comments/counts'),
  create: defineRoute<{ body: CreateCommentInput; response: Comment }>()('POST', '/api/comments'),
  remove: defineRoute<{ response: null }>()('DELETE', '/api/comments/:id'),
  /** The same vote again removes it (myVote null), the other one replaces it. */
  vote: defineRoute<{ body: VoteRequest; response: VoteResult }>()('POST', '/api/comments/:id/vote'),
  /** Its author or an admin marks it resolved, with an optional note; it keeps its votes. */
  resolve: defineRoute<{ body: ResolveCommentInput; response: Comment }>()('POST', '/api/comments/:id/resolve'),
  /** Any member opens a resolved comment again. */
  reopen: defineRoute<{ response: Comment }>()('POST', '/api/comments/:id/reopen'),
  /** The component's title travels along; the server only bounds it and uses its own copy. */
  summary: defineRoute<{ query: { title?: string }; response: CommentSummary }>()('GET', '/api/comments/:componentId/summary'),
} as const;
