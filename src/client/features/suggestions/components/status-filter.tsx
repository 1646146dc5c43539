import { useId } from 'react';
import { SUGGESTION_STATUSES, SUGGESTION_STATUS_LABELS, type SuggestionReviewStatus } from '../../../../common/api/suggestions';
import type { Suggestion } from '../../../../common/contract/ai';

export type StatusChoice = SuggestionReviewStatus | 'all';
export type SuggestionOrder = 'generated' | 'status';

/** How many suggestions stand at each status. */
export function countsByStatus(suggestions: readonly Suggestion[]): Record<SuggestionReviewStatus, number> {
  const counts: Record<SuggestionReviewStatus, number> = { open: 0, accepted: 0, in_progress: 0, done: 0, declined: 0 };
  for (const suggestion of suggestions) counts[suggestion.status] += 1;
  return counts;
}

/** The suggestions shown: those at the chosen status, in the generation's order or by status (open first, declined last). */
export function visibleSuggestions(suggestions: readonly Suggestion[], status: StatusChoice, order: SuggestionOrder): Suggestion[] {
  const chosen = status === 'all' ? [...suggestions] : suggestions.filter((suggestion) => suggestion.status === status);
  if (order === 'status') chosen.sort((a, b) => SUGGESTION_STATUSES.indexOf(a.status) - SUGGESTION_STATUSES.indexOf(b.status));
  return chosen;
}

/** The status filter, each option with its count, and the order; the counts also say how far the review is. */
export function StatusFilter({
  suggestions,
  status,
  order,
  onStatus,
  onOrder,
}: {
  suggestions: readonly Suggestion[];
  status: StatusChoice;
  order: SuggestionOrder;
  onStatus: (status: StatusChoice) => void;
  onOrder: (order: SuggestionOrder) => void;
}) {
  const ids = { status: useId(), order: useId() };
  const counts = countsByStatus(suggestions);
  const select = 'mt-1 block h-10 rounded-lg border border-slate-500 bg-white px-3 text-sm';
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={ids.status} className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
          Status
        </label>
        <select
          id={ids.status}
          value={status}
          className={select}
          onChange={(event) => {
            onStatus(SUGGESTION_STATUSES.find((value) => value === event.target.value) ?? 'all');
          }}
        >
          <option value="all">All ({suggestions.length})</option>
          {SUGGESTION_STATUSES.map((value) => (
            <option key={value} value={value}>
              {SUGGESTION_STATUS_LABELS[value]} ({counts[value]})
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={ids.order} className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
          Order
        </label>
        <select
          id={ids.order}
          value={order}
          className={select}
          onChange={(event) => {
            onOrder(event.target.value === 'status' ? 'status' : 'generated');
          }}
        >
          <option value="generated">As generated</option>
          <option value="status">By status</option>
        </select>
      </div>
      <p className="pb-2 text-sm text-slate-600" aria-live="polite">
        {SUGGESTION_STATUSES.filter((value) => counts[value] > 0)
          .map((value) => `${counts[value]} ${SUGGESTION_STATUS_LABELS[value].toLowerCase()}`)
          .join(' · ')}
      </p>
    </div>
  );
}
