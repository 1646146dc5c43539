import type { DayTotals } from '../../../../common/contract/activity';
import { ScrollRegion } from '../../../components/ui/scroll-region';
import { formatDay, formatHoursMinutes } from '../format';

/** The chart's figures as a table: what a screen reader reads, and the exact numbers for anyone. */
export function DailyTable({ days }: { days: readonly DayTotals[] }) {
  return (
    <ScrollRegion label="Figures per day, scrolls" className="mt-3 max-h-80 overflow-auto rounded-lg border border-slate-200 focus-visible:outline-offset-2">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Comments, votes and active time per day</caption>
        <thead className="sticky top-0 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {['Day', 'Comments', 'Votes', 'Active time'].map((heading) => (
              <th key={heading} scope="col" className="px-3 py-2">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {days.map((day) => (
            <tr key={day.day}>
              <th scope="row" className="px-3 py-1.5 font-medium text-slate-900">
                <time dateTime={day.day}>{formatDay(day.day)}</time>
              </th>
              <td className="px-3 py-1.5 text-slate-700 tabular-nums">{day.comments}</td>
              <td className="px-3 py-1.5 text-slate-700 tabular-nums">{day.votes}</td>
              <td className="px-3 py-1.5 text-slate-700 tabular-nums">{formatHoursMinutes(day.activeTime)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
