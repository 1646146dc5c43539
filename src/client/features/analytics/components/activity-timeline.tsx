import { useMemo } from 'react';
import type { ActivityLogEntry } from '../../../../common/contract/activity';
import { useSuggestions } from '../../../lib/queries/suggestions';
import { useReviewCoverage } from '../api/analytics';
import { activitySentence, capitalize, foldRuns, runSentence, type ActivityNames } from '../format';
import { EmptyState } from '../../../components/ui/panel';
import { TimeAgo } from '../../../components/ui/time-text';

/** A logged activity; the team's log also names the member. */
type TimelineEntry = ActivityLogEntry & { memberName?: string };

/**
 * The names a sentence may use: component titles from the coverage matrix (the page's own query)
 * and suggestions' text from the shared suggestions query. Until they arrive, or when one fails,
 * sentences leave the unknown out rather than show an id.
 */
function useActivityNames(): ActivityNames {
  const coverage = useReviewCoverage();
  const suggestions = useSuggestions();
  return useMemo(() => {
    const titles = new Map(coverage.data?.components.map((component) => [component.id, component.title]));
    const texts = new Map(suggestions.data?.map((suggestion) => [suggestion.id, { text: suggestion.suggestion, componentIds: suggestion.components }]));
    return { componentTitle: (id) => titles.get(id), suggestionText: (id) => texts.get(id) };
  }, [coverage.data, suggestions.data]);
}

/**
 * Logged activity, newest first, as sentences: who did what, and when. A member's consecutive page
 * views, or sign-ins, are one line.
 */
export function ActivityTimeline({ entries, now, label, empty }: { entries: readonly TimelineEntry[]; now: number; label: string; empty: string }) {
  const names = useActivityNames();
  if (entries.length === 0) return <EmptyState>{empty}</EmptyState>;
  return (
    <ol aria-label={label} className="divide-y divide-slate-200">
      {foldRuns(entries).map(({ first, entries: run }) => {
        const last = run.at(-1) ?? first;
        const what = run.length > 1 ? runSentence(first.activityType, run.length, last.timestamp, first.timestamp) : activitySentence(first, names);
        return (
          <li key={first.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 py-2.5 text-sm">
            <span className="min-w-0 flex-1 break-words text-slate-700">
              {first.memberName === undefined ? (
                capitalize(what)
              ) : (
                <>
                  <span className="font-medium text-slate-900">{first.memberName}</span> {what}
                </>
              )}
            </span>
            <span className="shrink-0 text-xs text-slate-600">
              <TimeAgo iso={first.timestamp} now={now} />
            </span>
          </li>
        );
      })}
    </ol>
  );
}
