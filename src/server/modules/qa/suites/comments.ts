import { QA_TEST_COMPONENT_ID } from '../../../../common/api/architecture.js';
import { commentRoutes } from '../../../../common/api/comments.js';
import { buildPath } from '../../../../common/api/route.js';
import { commentSchema, voteResultSchema, type Comment, type CommentKind, type VoteResult } from '../../../../common/contract/comments.js';
import { expectStatus, parseBody, type Cookies, type QaContext, type Response } from '../context.js';

/** The comment calls the suites make, always on the hidden QA component. */

export const QA_WITH_VOTES_PATH = buildPath(commentRoutes.withVotes.path, { componentId: QA_TEST_COMPONENT_ID });
export const commentPath = (id: number | string) => buildPath(commentRoutes.remove.path, { id });
export const votePath = (id: number | string) => buildPath(commentRoutes.vote.path, { id });

export function postCommentRaw(context: QaContext, body: unknown): Promise<Response> {
  return context.call('POST', commentRoutes.create.path, { body });
}

export async function postComment(context: QaContext, content: string, kind: CommentKind = 'comment'): Promise<Comment> {
  const response = await postCommentRaw(context, { componentId: QA_TEST_COMPONENT_ID, content, kind });
  expectStatus(response, 201, 'POST /api/comments');
  return parseBody(response, commentSchema, 'POST /api/comments');
}

export async function deleteComment(context: QaContext, id: number, session?: Cookies | null): Promise<Response> {
  return context.call('DELETE', commentPath(id), session === undefined ? {} : { session });
}

/** A QA comment for the length of `use`; deleted afterwards (the run's clean-up catches any it leaves). */
export async function withComment<T>(context: QaContext, label: string, use: (comment: Comment) => Promise<T>, kind: CommentKind = 'comment'): Promise<T> {
  const comment = await postComment(context, context.unique(label), kind);
  try {
    return await use(comment);
  } finally {
    await deleteComment(context, comment.id);
  }
}

/**
 * One comment as GET …/with-votes lists it, or undefined when the list does not hold it. Only that
 * entry is checked against the contract: the QA component may hold many comments (the bench's data
 * set puts 1,500 there), and validating every one would hold the event loop for tens of milliseconds.
 */
export async function findListed(context: QaContext, id: number): Promise<Comment | undefined> {
  const response = await context.call('GET', QA_WITH_VOTES_PATH);
  expectStatus(response, 200, `GET ${QA_WITH_VOTES_PATH}`);
  const list = response.json<unknown>();
  if (!Array.isArray(list)) throw new Error(`GET ${QA_WITH_VOTES_PATH} did not answer a list`);
  const entry: unknown = list.find((item: unknown) => typeof item === 'object' && item !== null && 'id' in item && item.id === id);
  if (entry === undefined) return undefined;
  const parsed = commentSchema.safeParse(entry);
  if (!parsed.success) throw new Error(`GET ${QA_WITH_VOTES_PATH}: comment ${id} does not match the contract (${parsed.error.issues[0]?.message ?? 'invalid'})`);
  return parsed.data;
}

export function voteRaw(context: QaContext, id: number, voteType: unknown): Promise<Response> {
  return context.call('POST', votePath(id), { body: { voteType } });
}

export async function vote(context: QaContext, id: number, voteType: 'thumbs_up' | 'thumbs_down'): Promise<VoteResult> {
  const response = await voteRaw(context, id, voteType);
  expectStatus(response, 200, `POST ${votePath(id)}`);
  return parseBody(response, voteResultSchema, `POST ${votePath(id)}`);
}
