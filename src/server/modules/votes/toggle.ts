import type { VoteType } from '../../../common/contract/comments.js';

/** One member's vote on one item (a comment, a suggestion), read and written inside the caller's transaction. */
export interface VoteStore {
  /** Removes the member's vote if it is this one; whether there was one to remove. */
  removeIfSame(voteType: VoteType): Promise<boolean>;
  /** Inserts the vote or replaces the member's other one. */
  put(voteType: VoteType): Promise<void>;
}

/**
 * The vote rule of comments and suggestions: the same vote again removes it, the other vote
 * replaces it. Answers the member's vote after the toggle. The caller holds the item's row lock,
 * so parallel toggles by one member run one after another.
 */
export async function toggleVote(store: VoteStore, voteType: VoteType): Promise<VoteType | null> {
  // The delete is the read: one statement when the vote goes, two when it is put (not a read and a write each time).
  if (await store.removeIfSame(voteType)) return null;
  await store.put(voteType);
  return voteType;
}
