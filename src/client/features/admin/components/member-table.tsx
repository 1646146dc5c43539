import { Users } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import type { AdminMember, EnrollmentLinkResult } from '../../../../common/contract/admin';
import { nameKey } from '../../../../common/names';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { plural } from '../../../lib/plural';
import { LoadError } from '../../../components/ui/load-error';
import { useNow } from '../../../lib/use-now';
import { useCurrentUser } from '../../../lib/auth';
import { useAdminUnlock } from '../admin-unlock';
import { useAdminMembers, useMemberActions } from '../api/members';
import { ConfirmDialog, ResetPinConfirmDialog } from './confirm-dialog';
import { EmptyState, ListSkeleton, Panel } from '../../../components/ui/panel';
import { DateTime, TimeAgo } from '../../../components/ui/time-text';
import { ToneBadge } from './tone-badge';

interface MemberTableProps {
  onLinkIssued: (link: EnrollmentLinkResult) => void;
}

/**
 * Rows shown at first, and added by each 'Show more': a team of hundreds drawn at once was one long
 * render and a layout of thousands of boxes before the panel could answer a click on a phone.
 */
const ROWS_PER_STEP = 25;

export function MemberTable({ onLinkIssued }: MemberTableProps) {
  const members = useAdminMembers();
  const now = useNow();
  // Read once for the table, not once a row.
  const { user } = useCurrentUser();
  const list = members.data;
  const [query, setQuery] = useState('');
  const [shownCount, setShownCount] = useState(ROWS_PER_STEP);
  const findId = useId();
  const wanted = nameKey(query);
  const matching = list === undefined || wanted === '' ? list : list.filter((member) => nameKey(member.name).includes(wanted));
  const rows = matching?.slice(0, shownCount);
  return (
    <Panel title="Team Members" icon={<Users className="h-5 w-5 text-brand-600" aria-hidden="true" />} description="Who can sign in, and the state of their PIN and enrollment.">
      {members.isPending && <ListSkeleton label="Loading team members…" />}
      {members.isError && list === undefined && <LoadError title="Team members could not be loaded" query={members} />}
      {list?.length === 0 && <EmptyState>No team members yet. Add the first one above.</EmptyState>}
      {list !== undefined && list.length > ROWS_PER_STEP && (
        <div className="mb-4 w-full sm:w-72">
          <label htmlFor={findId} className="block text-sm font-medium text-slate-900">
            Find a member
          </label>
          <Input
            id={findId}
            type="search"
            value={query}
            placeholder="Part of a name"
            className="mt-1"
            onChange={(event) => {
              setQuery(event.target.value);
              setShownCount(ROWS_PER_STEP);
            }}
          />
        </div>
      )}
      {matching?.length === 0 && list !== undefined && list.length > 0 && <EmptyState>No member’s name contains “{query.trim()}”.</EmptyState>}
      {rows !== undefined && rows.length > 0 && (
        <div className="-mx-5 overflow-x-auto sm:-mx-6">
          <table className="w-full min-w-[56rem] text-left text-sm">
            <caption className="sr-only">Team members</caption>
            <thead className="border-y border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide whitespace-nowrap text-slate-600 uppercase">
              <tr>
                {COLUMNS.map((column) => (
                  <th key={column.label} scope="col" className={column.className}>
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {rows.map((member) => (
                <MemberRow key={member.id} member={member} isSelf={user?.name === member.name} now={now} onLinkIssued={onLinkIssued} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {matching !== undefined && matching.length > ROWS_PER_STEP && (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <p role="status" className="text-sm text-slate-600">
            Showing {Math.min(shownCount, matching.length)} of {plural(matching.length, 'member')}
          </p>
          {shownCount < matching.length && (
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                setShownCount((count) => count + ROWS_PER_STEP);
              }}
            >
              Show {Math.min(ROWS_PER_STEP, matching.length - shownCount)} more
            </Button>
          )}
        </div>
      )}
    </Panel>
  );
}

const COLUMNS = [
  { label: 'Member', className: 'px-5 py-2 sm:px-6' },
  { label: 'PIN', className: 'px-3 py-2' },
  { label: 'Last sign-in', className: 'px-3 py-2' },
  { label: 'Status', className: 'px-3 py-2' },
  { label: 'Actions', className: 'px-5 py-2 sm:px-6' },
] as const;

/** A row's action: stays focusable while another action of the row is pending (aria-disabled, not disabled). */
function RowAction({ busy, danger = false, onClick, children }: { busy: boolean; danger?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <Button variant="outline" size="sm" className={danger ? 'border-red-300 text-red-700 hover:bg-red-50' : undefined} aria-disabled={busy} onClick={onClick}>
      {children}
    </Button>
  );
}

/** Where the member's PIN stands: set, or waiting for an enrollment link (out, run out, or never sent). */
function PinState({ member }: { member: AdminMember }) {
  if (member.pinSet) return <ToneBadge tone="green">PIN set</ToneBadge>;
  return (
    <div className="space-y-1">
      <ToneBadge tone="gray">No PIN</ToneBadge>
      {member.enrollment === 'pending' && (
        <p className="text-xs text-slate-700">
          Enrollment pending
          {member.enrollmentExpiresAt !== null && (
            <>
              , expires <DateTime iso={member.enrollmentExpiresAt} />
            </>
          )}
        </p>
      )}
      {member.enrollment === 'expired' && <p className="text-xs font-medium text-red-700">Enrollment link expired</p>}
    </div>
  );
}

function MemberRow({ member, isSelf, now, onLinkIssued }: { member: AdminMember; isSelf: boolean; now: number } & MemberTableProps) {
  const actions = useMemberActions(member.id);
  const { withPassword } = useAdminUnlock();
  const [confirming, setConfirming] = useState<'deactivate' | 'reset-pin' | null>(null);
  const busy = actions.enrollmentLink.isPending || actions.unlock.isPending || actions.setRole.isPending || actions.setActive.isPending || actions.resetPin.isPending;
  const locked = member.lockedUntil !== null && Date.parse(member.lockedUntil) > now;
  // Asks for the admin password first when the actions are locked, then goes on.
  const act = (run: (adminPassword: string) => void) => () => {
    if (!busy) withPassword(run);
  };
  const nextRole = member.role === 'admin' ? 'member' : 'admin';
  // The server refuses these for yourself (and the QA user never becomes admin, nor has its PIN reset): no button to press in vain.
  const canChangeRole = !isSelf && !(member.isQa && nextRole === 'admin');
  const canResetPin = !isSelf && !member.isQa;
  const closeConfirmation = (open: boolean) => {
    if (!open) setConfirming(null);
  };

  return (
    <tr className="align-top">
      <th scope="row" className="px-5 py-3 font-normal sm:px-6">
        <span className="font-semibold text-slate-900">{member.name}</span>
        <span className="mt-1 flex flex-wrap gap-1">
          <ToneBadge tone={member.role === 'admin' ? 'violet' : 'gray'}>{member.role === 'admin' ? 'Admin' : 'Member'}</ToneBadge>
          {member.isQa && <ToneBadge tone="blue">QA</ToneBadge>}
          {isSelf && <ToneBadge tone="gray">You</ToneBadge>}
        </span>
      </th>
      <td className="px-3 py-3">
        <PinState member={member} />
      </td>
      <td className="px-3 py-3 text-slate-700">{member.lastSignInAt === null ? 'Never' : <TimeAgo iso={member.lastSignInAt} now={now} />}</td>
      <td className="space-y-1 px-3 py-3">
        <ToneBadge tone={member.active ? 'green' : 'red'}>{member.active ? 'Active' : 'Deactivated'}</ToneBadge>
        {locked && member.lockedUntil !== null && (
          <p className="text-xs font-medium text-amber-900">
            Locked until <DateTime iso={member.lockedUntil} />
          </p>
        )}
      </td>
      <td className="px-5 py-3 sm:px-6">
        <div className="flex flex-wrap gap-2" aria-busy={busy}>
          {/* One place for both: after a reset the same button becomes 'New enrollment link', and keeps focus. A deactivated member gets neither. */}
          {member.active &&
            (member.pinSet ? (
              canResetPin && (
                <RowAction
                  busy={busy}
                  onClick={act(() => {
                    setConfirming('reset-pin');
                  })}
                >
                  Reset PIN
                </RowAction>
              )
            ) : (
              <RowAction
                busy={busy}
                onClick={act((adminPassword) => {
                  actions.enrollmentLink.mutate(adminPassword, { onSuccess: onLinkIssued });
                })}
              >
                New enrollment link
              </RowAction>
            ))}
          {locked && (
            <RowAction
              busy={busy}
              onClick={act((adminPassword) => {
                actions.unlock.mutate(adminPassword);
              })}
            >
              Unlock
            </RowAction>
          )}
          {canChangeRole && (
            <RowAction
              busy={busy}
              onClick={act((adminPassword) => {
                actions.setRole.mutate({ adminPassword, role: nextRole });
              })}
            >
              {nextRole === 'admin' ? 'Make admin' : 'Make member'}
            </RowAction>
          )}
          {isSelf ? null : member.active ? (
            <RowAction
              busy={busy}
              danger
              onClick={act(() => {
                setConfirming('deactivate');
              })}
            >
              Deactivate
            </RowAction>
          ) : (
            <RowAction
              busy={busy}
              onClick={act((adminPassword) => {
                actions.setActive.mutate({ adminPassword, active: true });
              })}
            >
              Reactivate
            </RowAction>
          )}
        </div>
        {/* Mounted only while asked: the table holds up to 200 rows. */}
        {confirming === 'deactivate' && (
          <ConfirmDialog
            open
            onOpenChange={closeConfirmation}
            title={`Deactivate ${member.name}?`}
            description={`${member.name}'s sessions end at once: they are signed out on every device and cannot sign in until reactivated.`}
            confirmLabel="Deactivate"
            onConfirm={() => {
              withPassword((adminPassword) => {
                actions.setActive.mutate({ adminPassword, active: false });
              });
            }}
          />
        )}
        {confirming === 'reset-pin' && (
          <ResetPinConfirmDialog
            memberName={member.name}
            onOpenChange={closeConfirmation}
            onConfirm={() => {
              withPassword((adminPassword) => {
                actions.resetPin.mutate(adminPassword, { onSuccess: onLinkIssued });
              });
            }}
          />
        )}
      </td>
    </tr>
  );
}
