import { useId, useRef } from 'react';
import { ACTION_STATUSES } from '../../../../common/api/suggestions';
import type { Suggestion } from '../../../../common/contract/ai';
import { useFocusWhenLost } from '../../../lib/use-focus-when-lost';
import { useNow } from '../../../lib/use-now';
import { useSuggestionLookup } from '../suggestion-lookup';
import { DoneButton, isOverdue, OwnerLine, StatusBadge, today } from './suggestion-outcome';

/**
 * The signed-in member's actions: the accepted suggestions the server says they own, overdue ones
 * first and marked, then by due day. Shown only to a member who owns one.
 */
export function MyActions({ suggestions }: { suggestions: readonly Suggestion[] }) {
  const headingId = useId();
  const day = today(useNow());
  const { titleOf } = useSuggestionLookup();
  const mine = suggestions
    .filter((suggestion) => suggestion.mine && ACTION_STATUSES.includes(suggestion.status))
    .sort(
      (a, b) =>
        Number(isOverdue(b, day)) - Number(isOverdue(a, day)) ||
        Number(a.status === 'done') - Number(b.status === 'done') ||
        (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999'),
    );
  if (mine.length === 0) return null;
  const open = mine.filter((suggestion) => suggestion.status !== 'done').length;
  const overdue = mine.filter((suggestion) => isOverdue(suggestion, day)).length;
  return (
    <section aria-labelledby={headingId} className="mt-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        My actions{' '}
        <span className="text-sm font-normal text-slate-600">
          ({open} open{overdue > 0 ? `, ${overdue} overdue` : ''}, {mine.length - open} done)
        </span>
      </h2>
      <ul className="mt-3 divide-y divide-slate-200">
        {mine.map((suggestion) => (
          <ActionItem key={suggestion.id} suggestion={suggestion} day={day} components={suggestion.components.map(titleOf).join(', ')} />
        ))}
      </ul>
    </section>
  );
}

/**
 * One action. 'Mark done' goes with the change it makes: the focus then stays with the action, on
 * its entry (only when it was lost, never taken from a teammate's change arriving live).
 */
function ActionItem({ suggestion, day, components }: { suggestion: Suggestion; day: string; components: string }) {
  const done = suggestion.status === 'done';
  const item = useRef<HTMLLIElement>(null);
  useFocusWhenLost(done, (isDone) => (isDone ? item.current : null));
  return (
    <li ref={item} tabIndex={-1} data-action-id={suggestion.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-1">
        <p className="text-sm break-words text-slate-900">{suggestion.suggestion}</p>
        <p className="text-xs text-slate-600">{components}</p>
        <OwnerLine suggestion={suggestion} day={day} />
      </div>
      <div className="flex shrink-0 items-center gap-2">
        <StatusBadge status={suggestion.status} />
        {!done && <DoneButton suggestion={suggestion} />}
      </div>
    </li>
  );
}
