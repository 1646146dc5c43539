import clsx from 'clsx';
import { Check } from 'lucide-react';
import type { Card } from '../../../../common/contract/architecture';
import type { ComponentCount } from '../comment-counts';
import type { OpenComments } from '../use-comment-panel';
import { CommentCountBadge } from './comment-count-badge';
import { CommentTrigger } from './comment-trigger';
import { DecisionChip } from '../../../components/ui/decision-chip';

interface ArchitectureCardProps {
  card: Card;
  groupTitle: string;
  count: ComponentCount | undefined;
  onOpenComments: OpenComments;
  className?: string;
}

export function ArchitectureCard({ card, groupTitle, count, onOpenComments, className }: ArchitectureCardProps) {
  const headingId = `card-${card.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className={clsx(
        'group relative flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition-shadow hover:border-slate-300 hover:shadow-md focus-within:border-brand-500 focus-within:shadow-md',
        className,
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <h3 id={headingId} className="text-base leading-snug font-semibold text-slate-900">
          {card.title}
        </h3>
        <CommentCountBadge count={count} />
      </div>
      {count?.decision != null && <DecisionChip outcome={count.decision} className="mt-2" />}
      {/* Where the review is thin: no comment yet (nothing shows while the counts load). */}
      {count !== undefined && count.open + count.resolved === 0 && (
        <span className="mt-2 inline-flex w-fit items-center rounded-full border border-amber-200 bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900">Not reviewed yet</span>
      )}
      <p className="mt-2 text-sm leading-relaxed text-slate-600">{card.description}</p>
      <ul className="mt-4 space-y-2 text-sm text-slate-700">
        {card.highlights.map((highlight) => (
          <li key={highlight} className="flex gap-2">
            <Check className="mt-0.5 h-4 w-4 shrink-0 text-brand-600" aria-hidden="true" />
            <span>{highlight}</span>
          </li>
        ))}
      </ul>
      {/*
        Where a pointer can hover, the button is hidden until then: it floats on the card's top edge
        and takes no room, so no card keeps an empty band for it. On touch screens it always shows,
        so it has its own row at the bottom.
      */}
      <div className="mt-auto flex justify-end pt-4 [@media(hover:hover)]:absolute [@media(hover:hover)]:-top-4 [@media(hover:hover)]:right-4 [@media(hover:hover)]:mt-0 [@media(hover:hover)]:pt-0">
        <CommentTrigger target={{ id: card.id, title: card.title, description: card.description, context: groupTitle }} onOpen={onOpenComments} />
      </div>
    </article>
  );
}
