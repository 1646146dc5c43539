import type { Architecture } from '../../../../common/contract/architecture';
import type { CommentCounts } from '../../../../common/contract/comments';
import { Skeleton } from '../../../components/ui/skeleton';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Every component under review, once: the cards and the diagram's boxes. */
export function reviewedComponentIds(architecture: Architecture): string[] {
  return [...new Set([...architecture.groups.flatMap((group) => group.cards.map((card) => card.id)), ...architecture.diagram.components.map((component) => component.id)])];
}

/** How far the review is, in one line: decisions, open comments, actions. From the counts the page already has. */
export function progressLine(architecture: Architecture, counts: CommentCounts): string {
  const ids = reviewedComponentIds(architecture);
  const entries = ids.map((id) => counts.components[id]);
  const decided = entries.filter((entry) => entry?.decision != null).length;
  const open = entries.reduce((sum, entry) => sum + (entry?.open ?? 0), 0);
  const resolved = entries.reduce((sum, entry) => sum + (entry?.resolved ?? 0), 0);
  return [
    `${decided} of ${plural(ids.length, 'component')} decided`,
    `${plural(open, 'open comment')}${resolved > 0 ? ` (${resolved} resolved)` : ''}`,
    `${plural(counts.actions.total, 'action')}, ${counts.actions.done} done`,
  ].join(' · ');
}

export function ReviewProgress({ architecture, counts }: { architecture: Architecture | undefined; counts: CommentCounts | undefined }) {
  if (architecture === undefined || counts === undefined) {
    return (
      <div className="mt-3" role="status">
        <span className="sr-only">Loading the review’s progress…</span>
        <Skeleton className="h-5 w-96 max-w-full" />
      </div>
    );
  }
  return (
    <p data-review-progress className="mt-3 inline-flex rounded-lg border border-slate-200 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-xs">
      {progressLine(architecture, counts)}
    </p>
  );
}
