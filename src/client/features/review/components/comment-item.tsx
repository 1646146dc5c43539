import clsx from 'clsx';
import type { Comment } from '../../../../common/contract/comments';
import { VoteButtons } from '../../../components/ui/vote-buttons';
import { initialsOf } from '../../../../common/names';
import { formatDateTime, formatRelativeTime } from '../../../lib/relative-time';
import { useVoteComment } from '../api/vote-comment';
import { DeleteCommentButton } from './delete-comment-button';

interface CommentItemProps {
  comment: Comment;
  /** The signed-in member's full name: their own vote is highlighted and only their comments can be deleted. */
  memberName: string | undefined;
  now: number;
  onDeleted: () => void;
}

export function CommentItem({ comment, memberName, now, onDeleted }: CommentItemProps) {
  const vote = useVoteComment(comment.id);
  const mine = memberName !== undefined && comment.memberName === memberName;
  const proposal = comment.kind === 'proposal';
  return (
    <li>
      <article
        aria-label={`${proposal ? 'Change proposal' : 'Comment'} by ${comment.memberName}`}
        className={clsx('rounded-xl border p-3', proposal ? 'border-amber-300 bg-amber-50' : 'border-slate-200 bg-white')}
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
          {mine && <DeleteCommentButton commentId={comment.id} componentId={comment.componentId} onDeleted={onDeleted} />}
        </footer>
      </article>
    </li>
  );
}
