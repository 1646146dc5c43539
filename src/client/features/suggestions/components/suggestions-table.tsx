import { memo, startTransition, useEffect, useState, type ReactNode } from 'react';
import type { Suggestion } from '../../../../common/contract/ai';
import { significanceOf } from '../../../../common/significance';
import { useNow } from '../../../lib/use-now';
import { SuggestionOutcome, today } from './suggestion-outcome';
import { useSuggestionLookup } from '../suggestion-lookup';
import { RecommendationTypeBadge, SignificanceBadge } from './badges';
import { SuggestionSourcesButton } from './sources-dialog';
import { useCurrentUser } from '../../../lib/auth';
import { SuggestionVotes } from './vote-buttons';
import { whenIdle } from '../../../lib/use-after-idle';

const COLUMNS = ['Suggestion', 'Status', 'Significance', 'Components', 'Type', 'Raised by', 'Votes'] as const;
const headerCell = 'px-4 py-3 text-xs font-semibold tracking-wide whitespace-nowrap text-slate-600 uppercase';
/** From md up a table row; below it each row is a card whose cells carry their own labels. */
const cell = 'px-4 py-3 align-top max-md:flex max-md:items-center max-md:gap-3 max-md:px-0 max-md:py-1.5';

/**
 * Rows in the first render, and added per idle moment after it. A row is about 25 elements: a few
 * hundred suggestions in one go would be a first render of thousands of elements, a long task that
 * holds the page's first paint and input back. The first screenful is there at once and the rest
 * follows within a moment, so find-in-page and Tab reach every row soon after.
 */
export const FIRST_ROWS = 12;
/** Small steps: each commit of new rows is one task on the main thread, kept well under 50 ms on a phone. */
const ROWS_PER_STEP = 12;

/**
 * The suggestions with their significance (the same rules as the server), components, type,
 * the initials of the members behind them, and votes. A real table on wide screens; on a phone
 * the same table lays each row out as a card, so nothing scrolls sideways.
 */
export function SuggestionsTable({ suggestions, captionId }: { suggestions: readonly Suggestion[]; captionId: string }) {
  const { user } = useCurrentUser();
  // The day, not the time: rows re-render when an action becomes overdue, not every tick.
  const day = today(useNow());
  const shown = useRowsShown(suggestions.length);
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm max-md:overflow-visible max-md:border-0 max-md:bg-transparent max-md:shadow-none">
      <table aria-labelledby={captionId} className="w-full text-left text-sm max-md:block">
        <thead className="border-b border-slate-200 bg-slate-50 max-md:sr-only">
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className={headerCell}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 max-md:block max-md:space-y-3 max-md:divide-y-0">
          {suggestions.slice(0, shown).map((suggestion) => (
            <SuggestionRow key={suggestion.id} suggestion={suggestion} memberName={user?.name} day={day} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** How many rows to render: FIRST_ROWS at first, then ROWS_PER_STEP more each time the browser is idle, up to `total`. */
function useRowsShown(total: number): number {
  const [shown, setShown] = useState(FIRST_ROWS);
  useEffect(() => {
    if (shown >= total) return undefined;
    const more = () => {
      // A transition: React renders the new rows in slices and lets input in between.
      startTransition(() => {
        setShown((count) => count + ROWS_PER_STEP);
      });
    };
    return whenIdle(more, { timeoutMs: 500, fallbackMs: 16 });
  }, [shown, total]);
  return Math.min(shown, total);
}

/** Memoised: each step of `useRowsShown` renders its new rows, not every row shown before. */
const SuggestionRow = memo(function SuggestionRow({ suggestion, memberName, day }: { suggestion: Suggestion; memberName: string | undefined; day: string }) {
  const { titleOf } = useSuggestionLookup();
  return (
    // A card on a phone: one the window has not reached is neither laid out nor painted
    // (content-visibility), so each step of new rows costs a layout of the cards on screen only.
    <tr
      data-suggestion-id={suggestion.id}
      className="max-md:block max-md:rounded-xl max-md:border max-md:border-slate-200 max-md:bg-white max-md:p-4 max-md:shadow-sm max-md:[contain-intrinsic-size:auto_20rem] max-md:[content-visibility:auto]"
    >
      <td className="px-4 py-3 align-top max-md:block max-md:px-0 max-md:pt-0 max-md:pb-2 md:min-w-72">
        <p className="leading-relaxed break-words whitespace-pre-wrap text-slate-900">{suggestion.suggestion}</p>
        <div className="mt-1.5">
          <SuggestionSourcesButton suggestion={suggestion} />
        </div>
      </td>
      <td className={cell}>
        <CellLabel>Status</CellLabel>
        <SuggestionOutcome suggestion={suggestion} day={day} />
      </td>
      <td className={cell}>
        <CellLabel>Significance</CellLabel>
        <SignificanceBadge significance={significanceOf(suggestion.suggestion)} />
      </td>
      <td className={cell}>
        <CellLabel>Components</CellLabel>
        <ul aria-label="Components" className="flex flex-wrap gap-1 md:max-w-56">
          {suggestion.components.map((componentId) => (
            <li key={componentId} className="rounded-md bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800">
              {titleOf(componentId)}
            </li>
          ))}
        </ul>
      </td>
      <td className={cell}>
        <CellLabel>Type</CellLabel>
        <RecommendationTypeBadge type={suggestion.recommendationType} />
      </td>
      <td className={cell}>
        <CellLabel>Raised by</CellLabel>
        <ul aria-label="Raised by" className="flex flex-wrap gap-1 md:min-w-24">
          {suggestion.memberInitials.map((initials) => (
            <li key={initials} className="inline-flex h-7 min-w-7 items-center justify-center rounded-full bg-brand-100 px-1.5 text-xs font-semibold text-brand-700">
              {initials}
            </li>
          ))}
        </ul>
      </td>
      <td className={cell}>
        <CellLabel>Votes</CellLabel>
        <SuggestionVotes suggestion={suggestion} memberName={memberName} />
      </td>
    </tr>
  );
});

/** The column's name beside the value on a phone; hidden from assistive technology, which reads the column header. */
function CellLabel({ children }: { children: ReactNode }) {
  return (
    <span aria-hidden="true" className="w-28 shrink-0 text-xs font-semibold tracking-wide text-slate-600 uppercase md:hidden">
      {children}
    </span>
  );
}
