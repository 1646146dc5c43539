import clsx from 'clsx';
import { CheckCircle2, Flag, UserPlus } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { SUGGESTION_STATUSES, SUGGESTION_STATUS_LABELS, type SuggestionReviewStatus } from '../../../../common/api/suggestions';
import type { Suggestion } from '../../../../common/contract/ai';
import { STATUS_REASON_MAX_LENGTH } from '../../../../common/limits';
import { useFocusWhenLost } from '../../../lib/use-focus-when-lost';
import { AdminFormDialog } from '../../../components/ui/admin-form-dialog';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { SelectField } from '../../../components/ui/select-field';
import { describeError } from '../../../lib/api-client';
import { useAssignableMembers, useSuggestionOutcome } from '../api/suggestion-outcomes';

const STATUS_CLASSES: Readonly<Record<SuggestionReviewStatus, string>> = {
  open: 'border-slate-200 bg-slate-50 text-slate-700',
  accepted: 'border-sky-200 bg-sky-50 text-sky-800',
  in_progress: 'border-amber-200 bg-amber-50 text-amber-900',
  done: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  declined: 'border-rose-200 bg-rose-50 text-rose-800',
};

export function StatusBadge({ status }: { status: SuggestionReviewStatus }) {
  return (
    <Badge data-status={status} className={STATUS_CLASSES[status]}>
      {SUGGESTION_STATUS_LABELS[status]}
    </Badge>
  );
}

/** Today as YYYY-MM-DD in the member's own time zone: an action due today is not yet overdue. */
export function today(now: number): string {
  const date = new Date(now);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** Due before `day` (YYYY-MM-DD) and not done or declined. */
export function isOverdue(suggestion: Pick<Suggestion, 'status' | 'dueDate'>, day: string): boolean {
  return suggestion.dueDate !== null && suggestion.status !== 'done' && suggestion.status !== 'declined' && suggestion.dueDate < day;
}

/** Who owns the action and when it is due; an overdue one stands out, in words as well as colour. */
export function OwnerLine({ suggestion, day }: { suggestion: Suggestion; day: string }) {
  if (suggestion.owner === null) return null;
  const overdue = isOverdue(suggestion, day);
  return (
    <p className={clsx('text-xs', overdue ? 'font-semibold text-red-700' : 'text-slate-600')}>
      Owner: {suggestion.owner}
      {suggestion.dueDate !== null && ` · due ${suggestion.dueDate}`}
      {overdue && ' · overdue'}
    </p>
  );
}

const short = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);

/** Admin: a new status; declining asks for the reason. */
function StatusDialog({ suggestion }: { suggestion: Suggestion }) {
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<SuggestionReviewStatus>(suggestion.status);
  const [reason, setReason] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const reasonId = useId();
  const change = useSuggestionOutcome(suggestion.id, {
    onSuccess: () => {
      setOpen(false);
      setReason('');
      setPassword('');
    },
  });
  return (
    <AdminFormDialog
      trigger={
        <Button variant="outline" size="sm">
          <Flag className="h-4 w-4" aria-hidden="true" />
          Status
        </Button>
      }
      title="Change the status"
      description={short(suggestion.suggestion)}
      submitLabel="Save status"
      pending={change.isPending}
      problem={problem}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setProblem(null);
        if (next) setStatus(suggestion.status);
      }}
      password={password}
      onPassword={setPassword}
      onSubmit={() => {
        const missing = status === 'declined' && reason.trim() === '' ? 'Declining needs a reason.' : password.trim() === '' ? 'Enter the admin password.' : null;
        setProblem(missing);
        if (missing !== null) return;
        change.mutate(
          { kind: 'status', input: { status, ...(status === 'declined' ? { reason } : {}), adminPassword: password } },
          {
            onError: (error) => {
              setProblem(describeError(error, 'The status was not changed.'));
            },
          },
        );
      }}
    >
      <SelectField
        label="Status"
        value={status}
        options={SUGGESTION_STATUSES.map((value) => ({ value, label: SUGGESTION_STATUS_LABELS[value] }))}
        onChange={(value) => {
          if (value !== '') setStatus(value);
        }}
      />
      {status === 'declined' && (
        <div>
          <label htmlFor={reasonId} className="text-sm font-medium text-slate-900">
            Reason
          </label>
          <textarea
            id={reasonId}
            rows={3}
            maxLength={STATUS_REASON_MAX_LENGTH}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
            }}
            className="mt-1 w-full rounded-md border border-slate-500 px-3 py-2 text-sm"
          />
        </div>
      )}
    </AdminFormDialog>
  );
}

/** Admin: the owner (an active member) and due day of an accepted suggestion's action. */
function AssignDialog({ suggestion }: { suggestion: Suggestion }) {
  const [open, setOpen] = useState(false);
  const [owner, setOwner] = useState(suggestion.owner ?? '');
  const [due, setDue] = useState(suggestion.dueDate ?? '');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const dueId = useId();
  const members = useAssignableMembers(open);
  const change = useSuggestionOutcome(suggestion.id, {
    onSuccess: () => {
      setOpen(false);
      setPassword('');
    },
  });
  return (
    <AdminFormDialog
      trigger={
        <Button variant="outline" size="sm">
          <UserPlus className="h-4 w-4" aria-hidden="true" />
          {suggestion.owner === null ? 'Assign' : 'Reassign'}
        </Button>
      }
      title="Owner of the action"
      description={short(suggestion.suggestion)}
      submitLabel="Save owner"
      pending={change.isPending}
      problem={problem}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setProblem(null);
      }}
      password={password}
      onPassword={setPassword}
      onSubmit={() => {
        const missing = owner.trim() === '' ? 'Choose the owner.' : password.trim() === '' ? 'Enter the admin password.' : null;
        setProblem(missing);
        if (missing !== null) return;
        change.mutate(
          { kind: 'assign', input: { ownerName: owner, dueDate: due === '' ? null : due, adminPassword: password } },
          {
            onError: (error) => {
              setProblem(describeError(error, 'The owner was not saved.'));
            },
          },
        );
      }}
    >
      <SelectField
        label="Owner"
        value={owner}
        options={[{ value: '', label: members.isPending ? 'Loading the team…' : 'Choose a member' }, ...(members.data ?? []).map((name) => ({ value: name, label: name }))]}
        onChange={setOwner}
      />
      <div>
        <label htmlFor={dueId} className="text-sm font-medium text-slate-900">
          Due <span className="font-normal text-slate-600">(optional)</span>
        </label>
        <Input
          id={dueId}
          type="date"
          value={due}
          onChange={(event) => {
            setDue(event.target.value);
          }}
          className="mt-1"
        />
      </div>
    </AdminFormDialog>
  );
}

/** The owner, or an admin, marks the action done. */
export function DoneButton({ suggestion }: { suggestion: Suggestion }) {
  const done = useSuggestionOutcome(suggestion.id, { toastErrors: true });
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={done.isPending}
      onClick={() => {
        done.mutate({ kind: 'done' });
      }}
    >
      <CheckCircle2 className="h-4 w-4" aria-hidden="true" />
      {done.isPending ? 'Saving...' : 'Mark done'}
    </Button>
  );
}

/**
 * Where a suggestion stands: its status, a declined one's reason, the action's owner and due day,
 * and the controls the server says this member may use (admins: status and owner; the owner and
 * admins: done).
 */
export function SuggestionOutcome({ suggestion, day }: { suggestion: Suggestion; day: string }) {
  const isAction = suggestion.status === 'accepted' || suggestion.status === 'in_progress';
  // 'Mark done' goes with the change it makes: the focus stays on this cell.
  const cell = useRef<HTMLDivElement>(null);
  useFocusWhenLost(suggestion.status, () => cell.current);
  const { canSetStatus, canAssign, canComplete } = suggestion.permissions;
  const showAssign = canAssign && isAction;
  const showDone = canComplete && isAction;
  return (
    <div ref={cell} tabIndex={-1} className="space-y-1.5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 md:min-w-40">
      <StatusBadge status={suggestion.status} />
      {suggestion.status === 'declined' && suggestion.statusReason !== null && <p className="text-xs break-words text-slate-600">Why: {suggestion.statusReason}</p>}
      <OwnerLine suggestion={suggestion} day={day} />
      {(canSetStatus || showAssign || showDone) && (
        <div className="flex flex-wrap gap-1.5">
          {canSetStatus && <StatusDialog suggestion={suggestion} />}
          {showAssign && <AssignDialog suggestion={suggestion} />}
          {showDone && <DoneButton suggestion={suggestion} />}
        </div>
      )}
    </div>
  );
}
