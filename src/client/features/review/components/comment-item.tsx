import clsx from 'clsx';
import { CheckCircle2, ChevronDown, RotateCcw } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import type { Comment } from '../../../../common/contract/comments';
import { Button } from '../../../components/ui/button';
import { VoteButtons } from '../../../components/ui/vote-buttons';
import { initialsOf } from '../../../../common/names';
import { formatDateTime, formatRelativeTime } from '../../../lib/relative-time';
import { useFocusWhenLost } from '../../../lib/use-focus-when-lost';
import { useSetResolved } from '../api/resolve-comment';
import { useVoteComment } from '../api/vote-comment';
import { DeleteCommentButton } from './delete-comment-button';
import { ResolveCommentButton } from './resolve-comment-button';

interface CommentItemProps {
  comment: Comment;
  /** The signed-in member's full name: their own vote is highlighted. */
  memberName: string | undefined;
  now: number;
  onDeleted: () => void;
}

/**
 * One comment. A resolved one is folded to a line (who resolved it, when, the note) that one click
 * unfolds; it keeps its votes. Which of resolve, reopen and delete it offers is what the server
 * says this member may do.
 */
export function CommentItem({ comment, memberName, now, onDeleted }: CommentItemProps) {
  const vote = useVoteComment(comment.id);
  const reopen = useSetResolved(comment);
  const { mine, permissions } = comment;
  const proposal = comment.kind === 'proposal';
  const resolution = comment.resolution;
  // Unfolded for this resolution only: resolved again later, it starts folded.
  const [unfoldedAt, setUnfoldedAt] = useState<string | null>(null);
  const unfolded = resolution !== null && unfoldedAt === resolution.at;
  const foldedId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const article = useRef<HTMLElement>(null);
  // The button that resolved or reopened it is gone with the change: focus stays with the comment.
  useFocusWhenLost(resolution !== null, (resolved) => (resolved ? toggle.current : article.current));

  const reopenButton = (
    <Button
      variant="ghost"
      size="sm"
      className="text-slate-700"
      disabled={reopen.isPending}
      onClick={() => {
        reopen.mutate({ resolved: false });
      }}
    >
      <RotateCcw className="h-4 w-4" aria-hidden="true" />
      {reopen.isPending ? 'Reopening...' : 'Reopen'}
    </Button>
  );

  return (
    <li>
      {resolution !== null && (
        <div className="rounded-xl border border-emerald-200 bg-emerald-50/60 px-3 py-2 text-sm text-slate-700">
          <p className="flex gap-2 break-words">
            <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-emerald-700" aria-hidden="true" />
            <span className="min-w-0">
              <span className="font-medium text-slate-900">Resolved</span> by {resolution.by},{' '}
              <time dateTime={resolution.at} title={formatDateTime(resolution.at)}>
                {formatRelativeTime(resolution.at, now)}
              </time>
              {resolution.note !== null && <span className="text-slate-600"> · “{resolution.note}”</span>}
              <span className="block text-xs text-slate-600">
                {comment.memberName}’s {proposal ? 'change proposal' : 'comment'}
              </span>
            </span>
          </p>
          <div className="mt-1 flex justify-end gap-1">
            <Button
              ref={toggle}
              variant="ghost"
              size="sm"
              aria-expanded={unfolded}
              aria-controls={foldedId}
              onClick={() => {
                setUnfoldedAt(unfolded ? null : resolution.at);
              }}
            >
              <ChevronDown className={clsx('h-4 w-4 transition-transform', unfolded && 'rotate-180')} aria-hidden="true" />
              {unfolded ? 'Hide' : 'Show'}
            </Button>
            {!unfolded && permissions.canReopen && reopenButton}
          </div>
        </div>
      )}
      <article
        ref={article}
        tabIndex={-1}
        id={foldedId}
        hidden={resolution !== null && !unfolded}
        aria-label={`${resolution !== null ? 'Resolved ' : ''}${proposal ? 'change proposal' : 'comment'} by ${comment.memberName}`.replace(/^./, (first) => first.toUpperCase())}
        className={clsx('rounded-xl border p-3 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600', proposal ? 'border-amber-300 bg-amber-50' : 'border-slate-200 bg-white', resolution !== null && 'mt-1 opacity-90')}
      >
        <header className="flex items-start gap-2.5">
          <span className="inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-700" aria-hidden="true">
            {initialsOf(comment.memberName)}
          </span>
          <div className="min-w-0 flex-1">
            <p className="text-sm font-semibold break-words text-slate-900">
              {comment.memberName}
              {mine && <span className="font-normal text-slate-600"> (you)</span>}
            </p>
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600">
              <time dateTime={comment.createdAt} title={formatDateTime(comment.createdAt)}>
                {formatRelativeTime(comment.createdAt, now)}
              </time>
              {proposal && <span className="rounded-full border border-amber-400 bg-amber-100 px-2 py-px font-semibold text-amber-900">Change proposal</span>}
            </p>
          </div>
        </header>
        <p className="mt-2 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800">{comment.content}</p>
        <footer className="mt-3 flex items-center gap-1.5">
          <VoteButtons votes={comment.votes} memberName={memberName} vote={vote} />
          {resolution === null && permissions.canResolve && <ResolveCommentButton comment={comment} />}
          {resolution !== null && permissions.canReopen && reopenButton}
          {permissions.canDelete && <DeleteCommentButton commentId={comment.id} componentId={comment.componentId} onDeleted={onDeleted} />}
        </footer>
      </article>
    </li>
  );
}
