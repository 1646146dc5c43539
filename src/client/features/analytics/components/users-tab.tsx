import clsx from 'clsx';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import type { AnalyticsUser } from '../../../../common/contract/activity';
import { LoadError } from '../../../components/ui/load-error';
import { useNow } from '../../../lib/use-now';
import { useAnalyticsUsers } from '../api/analytics';
import { formatHoursMinutes } from '../format';
import { EmptyState, ListSkeleton, Panel } from '../../../components/ui/panel';
import { TimeAgo } from '../../../components/ui/time-text';

// The detail dialog (and Radix Dialog with it) is fetched on first use, and prefetched on hover or focus of a name.
const importDetail = () => import('./member-detail');
let detailModule: ReturnType<typeof importDetail> | undefined;
function loadDetail() {
  detailModule ??= importDetail();
  return detailModule;
}
const MemberDetailDialog = lazy(loadDetail);

type SortKey = 'memberName' | 'totalLogins' | 'totalComments' | 'totalVotes' | 'totalActiveTime' | 'lastLogin';
type Direction = 'ascending' | 'descending';
export interface UserSort {
  key: SortKey;
  direction: Direction;
}

/** `wide`: shown from the sm breakpoint on; a phone keeps the name, active time and last login (the rest is in the member's detail). */
const COLUMNS: readonly { key: SortKey; label: string; numeric: boolean; wide?: true }[] = [
  { key: 'memberName', label: 'Member', numeric: false },
  { key: 'totalLogins', label: 'Logins', numeric: true, wide: true },
  { key: 'totalComments', label: 'Comments', numeric: true, wide: true },
  { key: 'totalVotes', label: 'Votes', numeric: true, wide: true },
  { key: 'totalActiveTime', label: 'Active time', numeric: true },
  { key: 'lastLogin', label: 'Last login', numeric: false },
];
const WIDE = 'hidden sm:table-cell';

/** A first click sorts names A to Z, and figures and dates most first; a second click turns the order round. */
function nextSort(current: UserSort, key: SortKey): UserSort {
  if (current.key === key) return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { key, direction: key === 'memberName' ? 'ascending' : 'descending' };
}

function compare(a: AnalyticsUser, b: AnalyticsUser, key: SortKey): number {
  switch (key) {
    case 'memberName':
      return a.memberName.localeCompare(b.memberName);
    case 'lastLogin':
      return (a.lastLogin === null ? 0 : Date.parse(a.lastLogin)) - (b.lastLogin === null ? 0 : Date.parse(b.lastLogin));
    default:
      return a[key] - b[key];
  }
}

/** The members in the order asked for; equal rows keep name order, and never-signed-in members stay last by last login. */
export function sortUsers(users: readonly AnalyticsUser[], sort: UserSort): AnalyticsUser[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return users.toSorted((a, b) => {
    if (sort.key === 'lastLogin' && (a.lastLogin === null) !== (b.lastLogin === null)) return a.lastLogin === null ? 1 : -1;
    return sign * compare(a, b, sort.key) || a.memberName.localeCompare(b.memberName);
  });
}

export function UsersTab() {
  const users = useAnalyticsUsers();
  const [sort, setSort] = useState<UserSort>({ key: 'memberName', direction: 'ascending' });
  const [openMember, setOpenMember] = useState<string | null>(null);
  // Mounted from the first opening on, so closing can animate and give focus back.
  const [detailUsed, setDetailUsed] = useState(false);
  // The name that opened the detail, where focus goes back when it closes.
  const opener = useRef<HTMLElement | null>(null);
  const now = useNow();
  const list = users.data;
  return (
    <Panel title="Members" description="Each member's sign-ins, comments, votes and active time. Choose a name for their activity.">
      <div aria-busy={users.isFetching}>
        {users.isPending && <ListSkeleton label="Loading the members…" rows={5} />}
        {users.isError && <LoadError title="The members could not be loaded" query={users} />}
        {list?.length === 0 && !users.isError && <EmptyState>No members yet.</EmptyState>}
        {list !== undefined && list.length > 0 && !users.isError && (
          <div className="relative -mx-5 overflow-x-auto sm:-mx-6">
            <table className="w-full text-left text-sm sm:min-w-[44rem]">
              <caption className="sr-only">Members, sorted by {COLUMNS.find((column) => column.key === sort.key)?.label.toLowerCase()}, {sort.direction}</caption>
              <thead className="border-y border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                <tr>
                  {COLUMNS.map((column) => (
                    <SortableHeader
                      key={column.key}
                      label={column.label}
                      numeric={column.numeric}
                      wide={column.wide === true}
                      direction={sort.key === column.key ? sort.direction : undefined}
                      onSort={() => {
                        setSort(nextSort(sort, column.key));
                      }}
                    />
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {sortUsers(list, sort).map((user) => (
                  <tr key={user.memberName}>
                    <th scope="row" className="px-3 py-1.5 pl-5 text-left font-medium sm:pl-6">
                      <button
                        type="button"
                        aria-haspopup="dialog"
                        onPointerEnter={() => void loadDetail()}
                        onFocus={() => void loadDetail()}
                        className="rounded py-1 text-left font-medium text-brand-700 underline decoration-brand-700/30 underline-offset-2 hover:decoration-brand-700"
                        onClick={(event) => {
                          opener.current = event.currentTarget;
                          setDetailUsed(true);
                          setOpenMember(user.memberName);
                        }}
                      >
                        {user.memberName}
                      </button>
                    </th>
                    <td className={clsx(WIDE, 'px-3 py-2 text-right text-slate-700 tabular-nums')}>{user.totalLogins}</td>
                    <td className={clsx(WIDE, 'px-3 py-2 text-right text-slate-700 tabular-nums')}>{user.totalComments}</td>
                    <td className={clsx(WIDE, 'px-3 py-2 text-right text-slate-700 tabular-nums')}>{user.totalVotes}</td>
                    <td className="px-3 py-2 text-right whitespace-nowrap text-slate-700 tabular-nums">{formatHoursMinutes(user.totalActiveTime)}</td>
                    <td className="px-3 py-2 pr-5 whitespace-nowrap text-slate-700 sm:pr-6">{user.lastLogin === null ? 'Never' : <TimeAgo iso={user.lastLogin} now={now} />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      {detailUsed && (
        <Suspense fallback={null}>
          <MemberDetailDialog
            memberName={openMember}
            opener={opener}
            onClose={() => {
              setOpenMember(null);
            }}
          />
        </Suspense>
      )}
    </Panel>
  );
}

/** A column header whose button sorts by it; `aria-sort` is on the sorted column only. */
function SortableHeader({ label, numeric, wide, direction, onSort }: { label: string; numeric: boolean; wide: boolean; direction: Direction | undefined; onSort: () => void }) {
  const Icon = direction === undefined ? ArrowUpDown : direction === 'ascending' ? ArrowUp : ArrowDown;
  return (
    <th scope="col" aria-sort={direction} className={clsx('px-3 py-1 first:pl-5 last:pr-5 sm:first:pl-6 sm:last:pr-6', numeric && 'text-right', wide && WIDE)}>
      <button
        type="button"
        onClick={onSort}
        className={clsx(
          'inline-flex items-center gap-1 rounded px-1 py-1.5 tracking-wide uppercase hover:text-slate-900',
          numeric && 'flex-row-reverse',
          direction !== undefined && 'text-slate-900',
        )}
      >
        {label}
        <Icon className={clsx('h-3.5 w-3.5', direction === undefined && 'text-slate-400')} aria-hidden="true" />
      </button>
    </th>
  );
}
