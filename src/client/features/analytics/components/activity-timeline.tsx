import type { ActivityLogEntry } from '../../../../common/contract/activity';
import { activityLabel, describeDetails } from '../format';
import { EmptyState } from '../../../components/ui/panel';
import { TimeAgo } from '../../../components/ui/time-text';

/** A logged activity; the team's log also names the member. */
type TimelineEntry = ActivityLogEntry & { memberName?: string };

/**
 * Logged activity, newest first: what was done, when, and its details. Details are the client's
 * own JSON text: parsed and shown as plain text, never as HTML.
 */
export function ActivityTimeline({ entries, now, label, empty }: { entries: readonly TimelineEntry[]; now: number; label: string; empty: string }) {
  if (entries.length === 0) return <EmptyState>{empty}</EmptyState>;
  return (
    <ol aria-label={label} className="divide-y divide-slate-200">
      {entries.map((entry) => {
        const details = describeDetails(entry.details);
        return (
          <li key={entry.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 py-2.5 text-sm">
            <span className="min-w-0 flex-1">
              {entry.memberName !== undefined && <span className="font-medium text-slate-900">{entry.memberName} </span>}
              <span className={entry.memberName === undefined ? 'font-medium text-slate-900' : 'text-slate-700'}>{activityLabel(entry.activityType)}</span>
              {details !== '' && <span className="block break-words text-slate-600">{details}</span>}
            </span>
            <span className="shrink-0 text-xs text-slate-600">
              <TimeAgo iso={entry.timestamp} now={now} />
            </span>
          </li>
        );
      })}
    </ol>
  );
}
