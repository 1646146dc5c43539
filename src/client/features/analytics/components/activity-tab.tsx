import { Circle } from 'lucide-react';
import { ANALYTICS } from '../../../../common/api/activity';
import type { ActiveSessionEntry } from '../../../../common/contract/activity';
import { LoadError } from '../../../components/ui/load-error';
import { useNow } from '../../../lib/use-now';
import { ACTIVE_NOW_REFETCH_MS, useActiveSessions, useTeamActivity } from '../api/analytics';
import { plural } from '../../../lib/plural';
import { ActivityTimeline } from './activity-timeline';
import { EmptyState, ListSkeleton, Panel } from '../../../components/ui/panel';
import { TimeAgo } from '../../../components/ui/time-text';

const ACTIVE_MINUTES = ANALYTICS.activeSessionMs / 60_000;

export function ActivityTab() {
  return (
    <div className="grid items-start gap-6 lg:grid-cols-5">
      <ActiveNow />
      <RecentActivity />
    </div>
  );
}

interface ActiveMember {
  memberName: string;
  sessions: number;
  /** The earliest sign-in of the member's active sessions. */
  loginTime: string;
  /** The latest moment any of them was seen. */
  lastSeen: string;
}

/** One row a member, however many tabs or devices they have open (the server lists sessions, newest seen first). */
function byMember(sessions: readonly ActiveSessionEntry[]): ActiveMember[] {
  const members = new Map<string, ActiveMember>();
  for (const session of sessions) {
    const known = members.get(session.memberName);
    if (known === undefined) members.set(session.memberName, { memberName: session.memberName, sessions: 1, loginTime: session.loginTime, lastSeen: session.lastSeen });
    else {
      known.sessions += 1;
      if (session.loginTime < known.loginTime) known.loginTime = session.loginTime;
      if (session.lastSeen > known.lastSeen) known.lastSeen = session.lastSeen;
    }
  }
  return [...members.values()];
}

function ActiveNow() {
  const sessions = useActiveSessions();
  const now = useNow(ACTIVE_NOW_REFETCH_MS);
  const list = sessions.data === undefined ? undefined : byMember(sessions.data);
  return (
    <Panel
      title="Active now"
      className="lg:col-span-2"
      description={`Members seen in the last ${ACTIVE_MINUTES} minutes; updated every ${ACTIVE_NOW_REFETCH_MS / 1000} seconds.`}
    >
      {sessions.isPending && <ListSkeleton label="Loading who is active…" />}
      {sessions.isError && <LoadError title="Who is active could not be loaded" query={sessions} />}
      {list?.length === 0 && !sessions.isError && <EmptyState>Nobody is active right now.</EmptyState>}
      {list !== undefined && list.length > 0 && !sessions.isError && (
        <>
          <p className="sr-only" aria-live="polite">
            {plural(list.length, 'member')} active
          </p>
          <ul aria-label="Active now" className="divide-y divide-slate-200">
            {list.map((member) => (
              <li key={member.memberName} className="flex flex-wrap items-center gap-x-3 gap-y-0.5 py-2.5 text-sm">
                <Circle className="h-2.5 w-2.5 shrink-0 fill-emerald-500 text-emerald-500" aria-hidden="true" />
                <span className="min-w-0 flex-1 font-medium break-words text-slate-900">{member.memberName}</span>
                <span className="basis-full pl-5.5 text-xs text-slate-600 sm:basis-auto sm:pl-0">
                  {member.sessions > 1 && `${member.sessions} sessions, `}signed in <TimeAgo iso={member.loginTime} now={now} />, seen <TimeAgo iso={member.lastSeen} now={now} />
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Panel>
  );
}

function RecentActivity() {
  const activity = useTeamActivity();
  const now = useNow();
  return (
    <Panel title="Recent activity" className="lg:col-span-3" description={`The team's last ${ANALYTICS.recentActivity} logged actions, newest first.`}>
      {activity.isPending && <ListSkeleton label="Loading the team's activity…" rows={5} />}
      {activity.isError && <LoadError title="The team's activity could not be loaded" query={activity} />}
      {activity.data !== undefined && !activity.isError && <ActivityTimeline entries={activity.data} now={now} label="The team's recent activity" empty="No activity yet." />}
    </Panel>
  );
}
