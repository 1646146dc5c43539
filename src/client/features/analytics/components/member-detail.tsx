import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { RefObject } from 'react';
import type { MemberAnalytics } from '../../../../common/contract/activity';
import { ERROR_CODES } from '../../../../common/api/error-codes';
import { LoadError } from '../../../components/ui/load-error';
import { hasErrorCode } from '../../../lib/api-client';
import { useEscapeCloses } from '../../../lib/use-escape-closes';
import { useNow } from '../../../lib/use-now';
import { useMemberAnalytics } from '../api/analytics';
import { formatHoursMinutes } from '../format';
import { ActivityTimeline } from './activity-timeline';
import { EmptyState, ListSkeleton } from '../../../components/ui/panel';
import { TimeAgo } from '../../../components/ui/time-text';
import { ScrollArea } from '../../../components/ui/scroll-area';

/**
 * One member's figures and recent activity, in a modal dialog over the members table: focus moves
 * in and stays, Escape or Close returns it to the name that opened it. Open while `memberName` is set.
 * Its own chunk (with Radix Dialog), loaded when a name is first pointed at, focused or chosen.
 */
export default function MemberDetailDialog({ memberName, opener, onClose }: { memberName: string | null; opener: RefObject<HTMLElement | null>; onClose: () => void }) {
  const open = memberName !== null;
  const onOpenChange = (next: boolean) => {
    if (!next) onClose();
  };
  useEscapeCloses(open, onOpenChange);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          className="fixed top-0 right-0 z-50 flex h-full w-full max-w-lg flex-col border-l border-slate-200 bg-white shadow-2xl outline-none"
          onCloseAutoFocus={(event) => {
            // The dialog has no Trigger of its own: focus goes back to the name that opened it.
            const from = opener.current;
            if (from === null || !from.isConnected) return;
            event.preventDefault();
            from.focus();
          }}
        >
          <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-5 py-4">
            <div className="min-w-0">
              <Dialog.Title className="text-lg font-semibold break-words text-slate-900">{memberName}</Dialog.Title>
              <Dialog.Description className="text-sm text-slate-600">Figures and recent activity</Dialog.Description>
            </div>
            <Dialog.Close className="rounded-md p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900" aria-label="Close">
              <X className="h-5 w-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <ScrollArea className="min-h-0 flex-1" viewportClassName="px-5 py-4">
            {memberName !== null && <MemberDetail memberName={memberName} />}
          </ScrollArea>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function MemberDetail({ memberName }: { memberName: string }) {
  const member = useMemberAnalytics(memberName);
  if (member.isPending) return <ListSkeleton label={`Loading ${memberName}'s activity…`} rows={5} />;
  if (member.isError) {
    if (hasErrorCode(member.error, ERROR_CODES.memberNotFound)) return <EmptyState>{memberName} is no longer a member of the team.</EmptyState>;
    return <LoadError title="This member's activity could not be loaded" query={member} />;
  }
  return <MemberFigures analytics={member.data} />;
}

/**
 * Days of the span with anything: the day totals (comments, votes, time on the page) and the log's
 * entries (sign-ins and page views are only there), so the count agrees with the list below it.
 */
function activeDayCount(daily: MemberAnalytics['daily'], log: MemberAnalytics['recentActivity']): number {
  const span = new Set(daily.map((day) => day.day));
  const active = new Set(daily.filter((day) => day.activeTime > 0 || day.comments > 0 || day.votes > 0).map((day) => day.day));
  for (const entry of log) {
    const day = entry.timestamp.slice(0, 10);
    if (span.has(day)) active.add(day);
  }
  return active.size;
}

function MemberFigures({ analytics }: { analytics: MemberAnalytics }) {
  const now = useNow();
  const { user, recentActivity, daily } = analytics;
  const activeDays = activeDayCount(daily, recentActivity);
  const didAnything = activeDays > 0 || user.totalLogins > 0 || user.totalComments > 0 || user.totalVotes > 0 || user.totalActiveTime > 0;
  const figures = [
    { label: 'Logins', value: String(user.totalLogins) },
    { label: 'Comments', value: String(user.totalComments) },
    { label: 'Votes', value: String(user.totalVotes) },
    { label: 'Active time', value: formatHoursMinutes(user.totalActiveTime) },
  ];
  return (
    <>
      <dl className="grid grid-cols-2 gap-3">
        {figures.map(({ label, value }) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="text-xl font-semibold text-slate-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-sm text-slate-700">
        Last login: {user.lastLogin === null ? 'never' : <TimeAgo iso={user.lastLogin} now={now} />}
        {daily.length > 0 && (
          <>
            {' · '}active on {activeDays} of the last {daily.length} days
          </>
        )}
      </p>
      <h3 className="mt-6 text-base font-semibold text-slate-900">Recent activity</h3>
      <div className="mt-2">
        <ActivityTimeline entries={recentActivity} now={now} label={`Recent activity of ${user.memberName}`} empty={didAnything ? 'Nothing in the recent log; the figures above count their sign-ins, comments, votes and time on the page.' : 'No activity yet.'} />
      </div>
    </>
  );
}
