import clsx from 'clsx';
import { MessageSquarePlus } from 'lucide-react';
import { loadCommentPanel, type OpenComments } from '../use-comment-panel';
import type { ReviewTarget } from '../review-target';

/**
 * Shown while its card or box is hovered or holds keyboard focus (the parent carries `group`), and
 * always on touch screens, which cannot hover. Hidden only visually: it stays in the tab order,
 * so focusing it is what reveals it.
 */
export const REVEAL_ON_HOVER_OR_FOCUS =
  'opacity-0 transition-opacity group-hover:opacity-100 group-focus-within:opacity-100 focus-visible:opacity-100 [@media(hover:none)]:opacity-100 motion-reduce:transition-none';

export function CommentTrigger({ target, onOpen, className }: { target: ReviewTarget; onOpen: OpenComments; className?: string }) {
  const prefetch = () => void loadCommentPanel();
  return (
    <button
      type="button"
      data-comment-trigger={target.id}
      aria-label={`Comment on ${target.title}`}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={(event) => {
        onOpen(target, event.currentTarget);
      }}
      className={clsx(
        'nodrag nopan inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium whitespace-nowrap text-slate-800 shadow-sm hover:bg-slate-50',
        REVEAL_ON_HOVER_OR_FOCUS,
        className,
      )}
    >
      <MessageSquarePlus className="h-4 w-4" aria-hidden="true" />
      Comment
    </button>
  );
}
