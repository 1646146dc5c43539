import type { CardGroup } from '../../../../common/contract/architecture';
import type { CommentCounts } from '../../../../common/contract/comments';
import type { OpenComments } from '../use-comment-panel';
import { countOf } from '../comment-counts';
import { ArchitectureCard } from './architecture-card';

export function CardGroupSection({ group, counts, onOpenComments }: { group: CardGroup; counts: CommentCounts | undefined; onOpenComments: OpenComments }) {
  const headingId = `group-${group.id}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-bold text-slate-900">
        {group.title}
      </h2>
      <p className="mt-1 max-w-3xl text-slate-600">{group.description}</p>
      <div className="mt-5 grid gap-4 sm:grid-cols-2 xl:grid-cols-6">
        {group.cards.map((card, index) => (
          <ArchitectureCard
            key={card.id}
            card={card}
            groupTitle={group.title}
            count={countOf(counts, card.id)}
            onOpenComments={onOpenComments}
            className={widensLastRow(group.cards.length, index) ? 'xl:col-span-3' : 'xl:col-span-2'}
          />
        ))}
      </div>
    </section>
  );
}

/** Three cards a row on wide screens; a last row of two shares the row's width instead of leaving a gap. */
function widensLastRow(count: number, index: number): boolean {
  return count % 3 === 2 && index >= count - 2;
}
