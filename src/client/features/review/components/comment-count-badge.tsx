import clsx from 'clsx';
import { MessageSquare } from 'lucide-react';
import type { ComponentCount } from '../comment-counts';

/** What the badge says: the open comments, and the resolved ones apart when there are any. */
export function countLabel(count: ComponentCount): string {
  const open = `${count.open} ${count.open === 1 ? 'comment' : 'comments'}`;
  return count.resolved === 0 ? open : `${count.open} open · ${count.resolved} resolved`;
}

/**
 * How many comments a component has: the open ones, with the resolved ones apart. The numbers are
 * visible, the words are for screen readers (and, on a card, visible for the resolved ones);
 * `tone` picks colours that stay readable on a white card or on a coloured diagram box, where
 * space is short and the resolved ones show as a tick.
 */
export function CommentCountBadge({ count, tone = 'light', className }: { count: ComponentCount | undefined; tone?: 'light' | 'on-dark' | 'on-light'; className?: string }) {
  const label = count === undefined ? 'Comment count loading' : countLabel(count);
  const resolved = count?.resolved ?? 0;
  return (
    <span
      title={label}
      data-comment-count={count?.open ?? ''}
      data-resolved-count={count?.resolved ?? ''}
      className={clsx(
        'inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums',
        tone === 'light' && (count?.open === 0 ? 'bg-slate-100 text-slate-600' : 'bg-brand-50 text-brand-700'),
        tone === 'on-dark' && 'bg-black/25 text-white',
        tone === 'on-light' && 'bg-black/10 text-slate-900',
        className,
      )}
    >
      <MessageSquare className="h-3.5 w-3.5" aria-hidden="true" />
      <span aria-hidden="true">
        {resolved > 0 && tone === 'light' ? `${count?.open ?? 0} open · ${resolved} resolved` : (count?.open ?? '…')}
        {resolved > 0 && tone !== 'light' && ` · ${resolved}✓`}
      </span>
      <span className="sr-only">{label}</span>
    </span>
  );
}
