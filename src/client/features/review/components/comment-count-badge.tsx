import clsx from 'clsx';
import { MessageSquare } from 'lucide-react';

/**
 * How many comments a component has. The number is visible, the word is for screen readers;
 * `tone` picks colours that stay readable on a white card or on a coloured diagram box.
 */
export function CommentCountBadge({ count, tone = 'light', className }: { count: number | undefined; tone?: 'light' | 'on-dark' | 'on-light'; className?: string }) {
  const label = count === undefined ? 'Comment count loading' : `${count} ${count === 1 ? 'comment' : 'comments'}`;
  return (
    <span
      title={label}
      data-comment-count={count ?? ''}
      className={clsx(
        'inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums',
        tone === 'light' && (count === 0 ? 'bg-slate-100 text-slate-600' : 'bg-brand-50 text-brand-700'),
        tone === 'on-dark' && 'bg-black/25 text-white',
        tone === 'on-light' && 'bg-black/10 text-slate-900',
        className,
      )}
    >
      <MessageSquare className="h-3.5 w-3.5" aria-hidden="true" />
      <span aria-hidden="true">{count ?? '…'}</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}
