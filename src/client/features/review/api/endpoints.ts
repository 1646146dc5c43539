import type { aiContract } from '../../../../shared/contract/ai';
import type { architectureContract } from '../../../../shared/contract/architecture';
import type { commentsContract } from '../../../../shared/contract/comments';

/**
 * The review's API paths as the client calls them. They are written out because the contract
 * modules build zod schemas at import time and a value import would pull zod (~25 KiB gzip) into
 * the page (ADR 0005); each literal is typed as the contract's own path, so the compiler fails the
 * build the day the two differ.
 */
type Comments = typeof commentsContract;

const ARCHITECTURE: typeof architectureContract.get.path = '/api/architecture';
const WITH_VOTES: Comments['withVotes']['path'] = '/api/comments/:componentId/with-votes';
const COUNTS: Comments['counts']['path'] = '/api/comments/counts';
const CREATE: Comments['create']['path'] = '/api/comments';
const REMOVE: Comments['remove']['path'] = '/api/comments/:id';
const VOTE: Comments['vote']['path'] = '/api/comments/:id/vote';
const SUMMARY: typeof aiContract.commentSummary.path = '/api/comments/:componentId/summary';

export const reviewPaths = {
  architecture: ARCHITECTURE,
  commentsWithVotes: (componentId: string) => WITH_VOTES.replace(':componentId', encodeURIComponent(componentId)),
  commentCounts: COUNTS,
  createComment: CREATE,
  deleteComment: (id: number) => REMOVE.replace(':id', String(id)),
  voteComment: (id: number) => VOTE.replace(':id', String(id)),
  /** The spec sends the component's title along; the server only bounds it and uses its own copy. */
  commentSummary: (componentId: string, title: string) =>
    `${SUMMARY.replace(':componentId', encodeURIComponent(componentId))}?${new URLSearchParams({ title }).toString()}`,
} as const;

/** Every comment query key starts with this: a reconnect of the live stream refetches them all at once. */
export const COMMENT_QUERIES_ROOT = ['comments'] as const;
