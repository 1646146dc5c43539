import { SelectField } from '../../../components/ui/select-field';
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
  const counts = countsByStatus(suggestions);
  return (
    <div className="flex flex-wrap items-end gap-3">
      <SelectField
        size="compact"
        label="Status"
        value={status}
        options={[
          { value: 'all', label: `All (${suggestions.length})` },
          ...SUGGESTION_STATUSES.map((value) => ({ value, label: `${SUGGESTION_STATUS_LABELS[value]} (${counts[value]})` })),
        ]}
        onChange={(value) => {
          onStatus(value === '' ? 'all' : value);
        }}
      />
      <SelectField
        size="compact"
        label="Order"
        value={order}
        options={[
          { value: 'generated', label: 'As generated' },
          { value: 'status', label: 'By status' },
        ]}
        onChange={(value) => {
          onOrder(value === 'status' ? 'status' : 'generated');
        }}
      />
      <p className="pb-2 text-sm text-slate-600" aria-live="polite">
        {SUGGESTION_STATUSES.filter((value) => counts[value] > 0)
          .map((value) => `${counts[value]} ${SUGGESTION_STATUS_LABELS[value].toLowerCase()}`)
          .join(' · ')}
      </p>
    </div>
  );
}
