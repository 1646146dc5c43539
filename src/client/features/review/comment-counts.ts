import type { CommentCounts } from '../../../common/contract/comments';

export type ComponentCount = CommentCounts['components'][string];

const NONE: ComponentCount = { open: 0, resolved: 0, decision: null };

/** A component without comments is absent from the counts answer: it has none, unless the counts are still loading. */
export function countOf(counts: CommentCounts | undefined, id: string): ComponentCount | undefined {
  if (counts === undefined) return undefined;
  return counts.components[id] ?? NONE;
}
