import type { VoteType } from '../../../common/contract/comments.js';

/** One member's vote on one item (a comment, a suggestion), read and written inside the caller's transaction. */
export interface VoteStore {
  find(): Promise<VoteType | undefined>;
  remove(): Promise<void>;
  /** Inserts the vote or replaces the member's other one. */
  put(voteType: VoteType): Promise<void>;
}

/**
 * The vote rule of comments and suggestions: the same vote again removes it, the other vote
 * replaces it. Answers the member's vote after the toggle. The caller holds the item's row lock,
 * so parallel toggles by one member run one after another.
 */
export async function toggleVote(store: VoteStore, voteType: VoteType): Promise<VoteType | null> {
  const existing = await store.find();
  if (existing === voteType) {
    await store.remove();
    return null;
  }
  await store.put(voteType);
  return voteType;
}
