import { ChevronRight } from 'lucide-react';
import { useId } from 'react';
import type { Decision } from '../../../../common/contract/decisions';
import { InlineError } from '../../../components/ui/inline-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { useCurrentUser } from '../../../lib/auth';
import { useComments } from '../../../lib/queries/comments';
import { useDecisions } from '../../../lib/queries/decisions';
import { formatDateTime, formatRelativeTime } from '../../../lib/relative-time';
import { useNow } from '../../../lib/use-now';
import { DecisionChip } from '../../../components/ui/decision-chip';
import { RecordDecisionDialog } from './record-decision-dialog';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** One decision: outcome, rationale, who and when, and what it rests on. */
function DecisionBody({ decision, now, commentText }: { decision: Decision; now: number; commentText: (id: number) => string | undefined }) {
  const basis = [decision.commentIds.length > 0 ? plural(decision.commentIds.length, 'comment') : '', decision.suggestionIds.length > 0 ? plural(decision.suggestionIds.length, 'suggestion') : '']
    .filter((part) => part !== '')
    .join(' and ');
  return (
    <div className="space-y-1.5">
      <DecisionChip outcome={decision.outcome} />
      <p className="text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800">{decision.rationale}</p>
      <p className="text-xs text-slate-600">
        Decided by {decision.decidedBy},{' '}
        <time dateTime={decision.decidedAt} title={formatDateTime(decision.decidedAt)}>
          {formatRelativeTime(decision.decidedAt, now)}
        </time>
        {basis !== '' && ` · rests on ${basis}`}
      </p>
      {decision.commentIds.length > 0 && (
        <ul className="space-y-0.5 border-l-2 border-slate-200 pl-2 text-xs text-slate-700">
          {decision.commentIds.map((id) => (
            <li key={id} className="break-words">
              {commentText(id) ?? <span className="italic">A comment deleted since.</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The component's current decision and, folded, the ones it superseded. Admins record a decision
 * here; members read it.
 */
export function DecisionSection({ componentId, componentTitle }: { componentId: string; componentTitle: string }) {
  const { user } = useCurrentUser();
  const canDecide = user?.permissions.canDecide === true;
  const decisions = useDecisions(componentId);
  const comments = useComments(componentId);
  const now = useNow();
  const headingId = useId();
  const commentText = (id: number) => {
    const comment = comments.data?.find((item) => item.id === id);
    return comment === undefined ? undefined : `${comment.memberName}: ${comment.content.length > 120 ? `${comment.content.slice(0, 119)}…` : comment.content}`;
  };
  const [current, ...earlier] = decisions.data ?? [];

  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-slate-50/60 p-3">
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          Decision
        </h3>
        {canDecide && decisions.data !== undefined && <RecordDecisionDialog componentId={componentId} componentTitle={componentTitle} superseding={current !== undefined} />}
      </div>
      {decisions.isPending && (
        <div className="mt-2 space-y-2" role="status">
          <span className="sr-only">Loading the decision…</span>
          <Skeleton className="h-5 w-32" />
          <Skeleton className="h-4 w-full" />
        </div>
      )}
      {decisions.isError && (
        <InlineError
          title="Could not load the decision"
          error={decisions.error}
          onRetry={() => {
            void decisions.refetch();
          }}
          className="mt-2 rounded-lg"
        />
      )}
      {decisions.data !== undefined && current === undefined && <p className="mt-1 text-sm text-slate-600">No decision yet.</p>}
      {current !== undefined && (
        <div className="mt-2">
          <DecisionBody decision={current} now={now} commentText={commentText} />
        </div>
      )}
      {earlier.length > 0 && (
        <details className="group mt-3">
          <summary className="flex cursor-pointer list-none items-center gap-1 text-sm font-medium text-slate-700 [&::-webkit-details-marker]:hidden">
            <ChevronRight className="h-4 w-4 transition-transform group-open:rotate-90" aria-hidden="true" />
            Earlier decisions ({earlier.length})
          </summary>
          <ol className="mt-2 space-y-3 border-t border-slate-200 pt-2">
            {earlier.map((decision) => (
              <li key={decision.id} className="opacity-90">
                <DecisionBody decision={decision} now={now} commentText={commentText} />
              </li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}
