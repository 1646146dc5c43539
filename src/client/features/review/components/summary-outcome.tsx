import type { CommentSummary, SummaryOutcome as Outcome } from '../../../../common/contract/ai';
import type { Comment } from '../../../../common/contract/comments';
import type { Decision } from '../../../../common/contract/decisions';
import { plural } from '../../../lib/plural';
import { formatDateTime, formatRelativeTime } from '../../../lib/relative-time';
import { DecisionChip } from '../../../components/ui/decision-chip';

/** What is settled, in words: '2 resolved comments and 1 the decision rests on'. */
export function settledInWords({ settledIds, resolvedCount }: Pick<Outcome, 'settledIds' | 'resolvedCount'>): string {
  const basis = settledIds.length - resolvedCount;
  const parts = [resolvedCount > 0 ? plural(resolvedCount, 'resolved comment') : '', basis > 0 ? `${plural(basis, 'comment')} the decision rests on` : ''].filter(
    (part) => part !== '',
  );
  return parts.join(' and ');
}

/**
 * Above a component's AI summary: the decision it cites and what it no longer reads as open
 * (resolved comments, and those the decision rests on). Both are the server's facts, not the AI's.
 */
export function SummaryOutcome({ outcome, now }: { outcome: Outcome; now: number }) {
  const { decision, settledIds } = outcome;
  if (decision === null && settledIds.length === 0) return null;
  return (
    <div className="mt-2 space-y-1 rounded-lg border border-slate-200 bg-slate-50 px-2.5 py-2">
      {decision !== null && (
        <p className="text-sm break-words text-slate-800">
          <span className="font-semibold">Decided </span>
          <time dateTime={decision.decidedAt} title={formatDateTime(decision.decidedAt)}>
            {formatRelativeTime(decision.decidedAt, now)}
          </time>{' '}
          by {decision.decidedBy}: <DecisionChip outcome={decision.outcome} className="align-middle" /> <q className="italic">{decision.rationale}</q>
        </p>
      )}
      {settledIds.length > 0 && <p className="text-xs text-slate-700">The summary reads only the open points: it leaves out {settledInWords(outcome)}.</p>}
    </div>
  );
}

/**
 * Whether the team settled something since the summary was made: a comment it read was resolved or
 * reopened, or the component's decision changed. `decision` is undefined while the decisions are
 * not known yet (then nothing is claimed).
 */
export function outcomeChangedSince(summary: Pick<CommentSummary, 'commentIds' | 'outcome'>, comments: readonly Comment[], decision: Decision | null | undefined): boolean {
  if (decision === undefined) return false;
  if ((decision?.id ?? null) !== (summary.outcome.decision?.id ?? null)) return true;
  const read = new Set(summary.commentIds);
  const listed = new Set(comments.map((comment) => comment.id));
  const basis = new Set(decision?.commentIds ?? []);
  const settledNow = comments.filter((comment) => read.has(comment.id) && (comment.resolution !== null || basis.has(comment.id))).map((comment) => comment.id);
  // A settled comment deleted since is no change of outcome (the panel counts deletions apart).
  const settledThen = new Set(summary.outcome.settledIds.filter((id) => listed.has(id)));
  return settledNow.length !== settledThen.size || settledNow.some((id) => !settledThen.has(id));
}
