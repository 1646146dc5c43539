import { useId } from 'react';
import type { ReviewOutcome as Outcome } from '../../../../common/contract/ai';
import { DecisionChip } from '../../../components/ui/decision-chip';
import { plural } from '../../../lib/plural';
import { formatDateTime, formatRelativeTime } from '../../../lib/relative-time';
import { useSuggestionLookup } from '../suggestion-lookup';

/**
 * In the AI Summary card: what the team has decided (each component's current decision, cited
 * with who and when) and what the reading above left out as settled. The server's facts, not the
 * AI's words.
 */
export function ReviewOutcome({ outcome, now }: { outcome: Outcome; now: number }) {
  const headingId = useId();
  const { titleOf } = useSuggestionLookup();
  const { decisions, settledSuggestionCount, settledCommentCount } = outcome;
  const settled = [
    settledSuggestionCount > 0 ? plural(settledSuggestionCount, 'decided suggestion') : '',
    settledCommentCount > 0 ? plural(settledCommentCount, 'settled comment') : '',
  ].filter((part) => part !== '');
  if (decisions.length === 0 && settled.length === 0) return null;
  return (
    <div>
      <h3 id={headingId} className="text-sm font-semibold tracking-wide text-slate-600 uppercase">
        Decided so far
      </h3>
      {decisions.length === 0 ? (
        <p className="mt-1.5 text-sm text-slate-600">No component has a decision yet.</p>
      ) : (
        <ul aria-labelledby={headingId} className="mt-2 space-y-2">
          {decisions.map((decision) => (
            <li key={decision.id} data-decision-id={decision.id} className="rounded-lg border border-slate-200 p-3 text-sm break-words text-slate-800">
              <span className="font-semibold text-slate-900">{titleOf(decision.componentId)}</span> <DecisionChip outcome={decision.outcome} className="align-middle" />{' '}
              <q className="italic">{decision.rationale}</q>{' '}
              <span className="text-xs text-slate-600">
                ({decision.decidedBy},{' '}
                <time dateTime={decision.decidedAt} title={formatDateTime(decision.decidedAt)}>
                  {formatRelativeTime(decision.decidedAt, now)}
                </time>
                )
              </span>
            </li>
          ))}
        </ul>
      )}
      {settled.length > 0 && <p className="mt-2 text-xs text-slate-600">This summary reads only what is still open: it leaves out {settled.join(' and ')}.</p>}
    </div>
  );
}
