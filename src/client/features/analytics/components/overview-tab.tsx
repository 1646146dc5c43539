import { ANALYTICS } from '../../../../common/api/activity';
import type { AnalyticsUser, DayTotals } from '../../../../common/contract/activity';
import { LoadError } from '../../../components/ui/load-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { useAnalyticsUsers, useDailyTotals } from '../api/analytics';
import { plural } from '../../../lib/plural';
import { formatDay, formatHoursMinutes } from '../format';
import DailyChart from './daily-chart';
import { DailyTable } from './daily-table';
import { EmptyState, Panel } from '../../../components/ui/panel';


/** The members with the most comments, most first; ties go to more votes, then by name. */
export function topCommenters(users: readonly AnalyticsUser[]): AnalyticsUser[] {
  return users
    .filter((user) => user.totalComments > 0)
    .toSorted((a, b) => b.totalComments - a.totalComments || b.totalVotes - a.totalVotes || a.memberName.localeCompare(b.memberName))
    .slice(0, ANALYTICS.topMembers);
}

export function OverviewTab() {
  const users = useAnalyticsUsers();
  return (
    <div className="space-y-6">
      {users.isError && <LoadError title="The team's figures could not be loaded" query={users} />}
      {!users.isError && (
        // While loading, the same two panels with placeholders of their size: the daily figures
        // below keep their place when the numbers arrive (a phone stacks the panels).
        <div className="grid gap-6 lg:grid-cols-5">
          <TeamTotals users={users.data} className="lg:col-span-2" />
          <TopCommenters users={users.data} className="lg:col-span-3" />
        </div>
      )}
      <DailyPanel />
    </div>
  );
}

/** The team's totals; `undefined` while they load, when each figure is a placeholder of its height. */
function TeamTotals({ users, className }: { users: readonly AnalyticsUser[] | undefined; className: string }) {
  const sum = (pick: (user: AnalyticsUser) => number) => (users ?? []).reduce((total, user) => total + pick(user), 0);
  const totals = [
    { label: 'Members', value: String(users?.length) },
    { label: 'Comments', value: String(sum((user) => user.totalComments)) },
    { label: 'Votes', value: String(sum((user) => user.totalVotes)) },
    { label: 'Active time', value: formatHoursMinutes(sum((user) => user.totalActiveTime)) },
  ];
  return (
    <Panel title="Team totals" className={className}>
      {users === undefined && (
        <p role="status" className="sr-only">
          Loading the team's figures…
        </p>
      )}
      <dl className="grid grid-cols-2 gap-3">
        {totals.map(({ label, value }) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-slate-50 px-4 py-3">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{users === undefined ? <Skeleton className="my-1 h-6 w-16" /> : value}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}

/** Rows a phone shows while the contributors load: one line for the name, one for the figures. */
function ContributorSkeletons() {
  return (
    <ol aria-hidden="true" className="divide-y divide-slate-200">
      {Array.from({ length: ANALYTICS.topMembers }, (_, row) => (
        <li key={row} className="flex items-center gap-3 py-2.5">
          <Skeleton className="h-7 w-7 shrink-0 rounded-full" />
          <span className="min-w-0 flex-1 space-y-1 sm:flex sm:items-center sm:gap-4 sm:space-y-0">
            <Skeleton className="h-5 w-40 sm:flex-1" />
            <Skeleton className="h-4 w-32 sm:h-5 sm:w-24" />
          </span>
        </li>
      ))}
    </ol>
  );
}

function TopCommenters({ users, className }: { users: readonly AnalyticsUser[] | undefined; className: string }) {
  const top = users === undefined ? undefined : topCommenters(users);
  return (
    <Panel title="Top contributors" description={`The ${ANALYTICS.topMembers} members with the most comments, and their active time.`} className={className}>
      {top === undefined ? (
        <ContributorSkeletons />
      ) : top.length === 0 ? (
        <EmptyState>No comments yet.</EmptyState>
      ) : (
        <ol aria-label="Top contributors" className="divide-y divide-slate-200">
          {top.map((user, index) => (
            <li key={user.memberName} className="flex items-center gap-3 py-2.5">
              <span aria-hidden="true" className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-brand-50 text-sm font-semibold text-brand-700">
                {index + 1}
              </span>
              {/* On a phone the figures go under the name; from 640 px they are columns beside it. */}
              <span className="min-w-0 flex-1 sm:flex sm:items-center sm:gap-4">
                <span className="block font-medium break-words text-slate-900 sm:flex-1">{user.memberName}</span>
                <span className="text-sm text-slate-700 tabular-nums">
                  {plural(user.totalComments, 'comment')}
                  <span aria-hidden="true" className="sm:hidden">
                    {' · '}
                  </span>
                </span>
                <span className="text-sm text-slate-700 tabular-nums sm:w-24 sm:text-right">
                  <span className="sr-only">, active time </span>
                  {formatHoursMinutes(user.totalActiveTime)}
                </span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}

function isQuiet(days: readonly DayTotals[]): boolean {
  return days.every((day) => day.comments === 0 && day.votes === 0 && day.activeTime === 0);
}

function DailyPanel() {
  const daily = useDailyTotals();
  const days = daily.data?.days;
  const first = days?.[0];
  const last = days?.at(-1);
  return (
    <Panel
      title={`The last ${ANALYTICS.chartDays} days`}
      description={first !== undefined && last !== undefined ? `Comments, votes and active time per day, ${formatDay(first.day)} to ${formatDay(last.day)} (UTC).` : 'Comments, votes and active time per day.'}
    >
      {daily.isPending && <ChartSkeleton label="Loading the daily figures…" />}
      {daily.isError && <LoadError title="The daily figures could not be loaded" query={daily} />}
      {days !== undefined && !daily.isError && (isQuiet(days) ? <EmptyState>No activity in the last {ANALYTICS.chartDays} days yet.</EmptyState> : <DailyFigures days={days} />)}
    </Panel>
  );
}

function DailyFigures({ days }: { days: readonly DayTotals[] }) {
  return (
    <>
      <DailyChart days={days} />
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer py-0.5 font-medium text-brand-700">Show the figures as a table</summary>
        <DailyTable days={days} />
      </details>
    </>
  );
}

function ChartSkeleton({ label }: { label: string }) {
  return (
    <div role="status">
      <span className="sr-only">{label}</span>
      <Skeleton className="h-72 w-full" />
    </div>
  );
}
