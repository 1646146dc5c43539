import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import type { EnrollmentLinkResult, PinResetRequest } from '../../../../common/contract/admin';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { useNow } from '../../../lib/use-now';
import { useAdminUnlock } from '../admin-unlock';
import { usePinResetRequests, useResolvePinReset } from '../api/pin-resets';
import { EmptyState, ListSkeleton, Panel } from '../../../components/ui/panel';
import { ResetPinConfirmDialog } from './confirm-dialog';
import { TimeAgo } from '../../../components/ui/time-text';
import { ToneBadge } from './tone-badge';

interface PinResetsTabProps {
  onLinkIssued: (link: EnrollmentLinkResult) => void;
}

export function PinResetsTab({ onLinkIssued }: PinResetsTabProps) {
  const requests = usePinResetRequests();
  const now = useNow();
  const list = requests.data;
  const pending = list?.filter((request) => request.status === 'pending').length ?? 0;
  return (
    <Panel
      title="PIN Reset Requests"
      icon={<KeyRound className="h-5 w-5 text-brand-600" aria-hidden="true" />}
      description="Members who used 'Forgot PIN' on the sign-in screen. Resetting clears their PIN, signs them out everywhere and gives you a new enrollment link to send them."
    >
      {requests.isPending && <ListSkeleton label="Loading PIN reset requests…" />}
      {requests.isError && list === undefined && <LoadError title="PIN reset requests could not be loaded" query={requests} />}
      {list !== undefined && pending === 0 && <EmptyState>No pending PIN reset requests</EmptyState>}
      {list !== undefined && list.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200" aria-label="PIN reset requests">
          {list.map((request) => (
            <PinResetRow key={request.id} request={request} now={now} onLinkIssued={onLinkIssued} />
          ))}
        </ul>
      )}
    </Panel>
  );
}

function PinResetRow({ request, now, onLinkIssued }: { request: PinResetRequest; now: number } & PinResetsTabProps) {
  const resolve = useResolvePinReset(request.id);
  const { withPassword } = useAdminUnlock();
  const [confirming, setConfirming] = useState(false);
  const pending = request.status === 'pending';
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-slate-900">{request.memberName}</span>
          <ToneBadge tone={pending ? 'amber' : 'green'}>{pending ? 'Pending' : 'Resolved'}</ToneBadge>
        </p>
        <p className="mt-1 text-sm text-slate-600">
          Requested <TimeAgo iso={request.requestedAt} now={now} />
          {request.resolvedAt !== null && (
            <>
              {' '}
              &middot; resolved <TimeAgo iso={request.resolvedAt} now={now} />
            </>
          )}
          {request.resolvedBy !== null && <> by {request.resolvedBy}</>}
        </p>
      </div>
      {pending && (
        <Button
          size="sm"
          aria-disabled={resolve.isPending}
          onClick={() => {
            // The password first (when locked), then the question, so the answer acts at once.
            if (!resolve.isPending)
              withPassword(() => {
                setConfirming(true);
              });
          }}
        >
          <KeyRound className="h-4 w-4" aria-hidden="true" />
          {resolve.isPending ? 'Resetting...' : 'Reset PIN'}
          <span className="sr-only"> of {request.memberName}</span>
        </Button>
      )}
      {/* Mounted only while asked: the list holds up to 200 requests. */}
      {confirming && (
        <ResetPinConfirmDialog
          memberName={request.memberName}
          onOpenChange={setConfirming}
          onConfirm={() => {
            withPassword((adminPassword) => {
              resolve.mutate(adminPassword, { onSuccess: onLinkIssued });
            });
          }}
        />
      )}
    </li>
  );
}
