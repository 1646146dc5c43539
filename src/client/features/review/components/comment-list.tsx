import { MessagesSquare } from 'lucide-react';
import { useId, useRef } from 'react';
import { InlineError } from '../../../components/ui/inline-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { useCurrentUser } from '../../../lib/auth';
import { useComments } from '../../../lib/queries/comments';
import { useNow } from '../../../lib/use-now';
import { CommentItem } from './comment-item';

/** The component's comments, newest first (the server's order), each with its votes. */
export function CommentList({ componentId, componentTitle }: { componentId: string; componentTitle: string }) {
  const { user } = useCurrentUser();
  const comments = useComments(componentId);
  const now = useNow();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const list = comments.data;
  const proposals = list?.filter((comment) => comment.kind === 'proposal').length ?? 0;
  const resolved = list?.filter((comment) => comment.resolution !== null).length ?? 0;

  return (
    <section aria-labelledby={headingId} aria-busy={comments.isFetching}>
      <h3 ref={heading} id={headingId} tabIndex={-1} className="flex items-baseline gap-2 text-sm font-semibold text-slate-900 outline-none">
        Comments
        {list !== undefined && (
          <span className="font-normal text-slate-600">
            ({resolved > 0 ? `${list.length - resolved} open · ${resolved} resolved` : list.length}
            {proposals > 0 ? `, ${proposals} ${proposals === 1 ? 'proposal' : 'proposals'}` : ''})
          </span>
        )}
      </h3>

      {comments.isPending && (
        <div className="mt-3 space-y-3" role="status">
          <span className="sr-only">Loading comments…</span>
          {[0, 1, 2].map((row) => (
            <div key={row} className="rounded-xl border border-slate-200 p-3">
              <div className="flex items-center gap-2">
                <Skeleton className="h-8 w-8 rounded-full" />
                <Skeleton className="h-4 w-32" />
              </div>
              <Skeleton className="mt-3 h-4 w-full" />
              <Skeleton className="mt-2 h-4 w-2/3" />
            </div>
          ))}
        </div>
      )}

      {comments.isError && (
        <InlineError
          title="Could not load the comments"
          error={comments.error}
          onRetry={() => {
            void comments.refetch();
          }}
          className="mt-3 rounded-xl"
        />
      )}

      {list !== undefined && list.length === 0 && (
        <div className="mt-3 flex flex-col items-center rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center">
          <MessagesSquare className="h-6 w-6 text-slate-400" aria-hidden="true" />
          <p className="mt-2 text-sm font-medium text-slate-800">No comments yet</p>
          <p className="mt-1 text-sm text-slate-600">Be the first to comment on {componentTitle}.</p>
        </div>
      )}

      {list !== undefined && list.length > 0 && (
        <ul className="mt-3 space-y-3">
          {list.map((comment) => (
            <CommentItem
              key={comment.id}
              comment={comment}
              memberName={user?.name}
              now={now}
              onDeleted={() => {
                heading.current?.focus();
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
