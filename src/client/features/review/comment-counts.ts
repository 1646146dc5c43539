import type { CommentCounts } from '../../../common/contract/comments';

/** A component without comments is absent from the counts answer: it has 0, unless the counts are still loading. */
export function countOf(counts: CommentCounts | undefined, id: string): number | undefined {
  if (counts === undefined) return undefined;
  return counts[id] ?? 0;
}
