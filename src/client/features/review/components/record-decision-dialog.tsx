import { Dialog } from 'radix-ui';
import { Gavel } from 'lucide-react';
import { useId, useState, type SyntheticEvent } from 'react';
import { DECISION_LABELS, DECISION_OUTCOMES, type DecisionOutcome } from '../../../../common/api/decisions';
import { DECISION_RATIONALE_MAX_LENGTH } from '../../../../common/limits';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { describeError } from '../../../lib/api-client';
import { useComments } from '../../../lib/queries/comments';
import { useSuggestions } from '../../../lib/queries/suggestions';
import { useRecordDecision } from '../api/record-decision';

const excerpt = (text: string) => (text.length > 90 ? `${text.slice(0, 89)}…` : text);

/**
 * The admin's form for a decision on one component: the outcome, why (required), the comments and
 * suggestions it rests on (picked from the component's own), and the admin password the server
 * checks. A refusal is shown in the dialog, which keeps what was typed.
 */
export function RecordDecisionDialog({ componentId, componentTitle, superseding }: { componentId: string; componentTitle: string; superseding: boolean }) {
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<DecisionOutcome | null>(null);
  const [rationale, setRationale] = useState('');
  const [commentIds, setCommentIds] = useState<ReadonlySet<number>>(new Set());
  const [suggestionIds, setSuggestionIds] = useState<ReadonlySet<number>>(new Set());
  const [adminPassword, setAdminPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { rationale: useId(), password: useId(), problem: useId() };
  const comments = useComments(componentId);
  const suggestions = useSuggestions();
  const related = (suggestions.data ?? []).filter((suggestion) => suggestion.components.includes(componentId));
  const record = useRecordDecision(componentId, {
    onSuccess: () => {
      setOpen(false);
      setOutcome(null);
      setRationale('');
      setCommentIds(new Set());
      setSuggestionIds(new Set());
      setAdminPassword('');
    },
  });

  const toggle = (set: ReadonlySet<number>, id: number) => {
    const next = new Set(set);
    if (!next.delete(id)) next.add(id);
    return next;
  };

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const missing =
      outcome === null ? 'Choose what was decided.' : rationale.trim() === '' ? 'Write why: a decision needs a rationale.' : adminPassword.trim() === '' ? 'Enter the admin password.' : null;
    setProblem(missing);
    if (missing !== null || outcome === null) return;
    record.mutate(
      { outcome, rationale, commentIds: [...commentIds], suggestionIds: [...suggestionIds], adminPassword },
      {
        onError: (error) => {
          setProblem(describeError(error, 'The decision was not recorded. Please try again.'));
        },
      },
    );
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setProblem(null);
      }}
    >
      <Dialog.Trigger asChild>
        <Button variant="outline" size="sm">
          <Gavel className="h-4 w-4" aria-hidden="true" />
          {superseding ? 'Record a new decision' : 'Record a decision'}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-slate-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-[60] flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl bg-white shadow-xl">
          <div className="border-b border-slate-200 px-5 py-4">
            <Dialog.Title className="text-base font-semibold text-slate-900">Decision on {componentTitle}</Dialog.Title>
            <Dialog.Description className="mt-1 text-sm text-slate-600">
              {superseding ? 'It supersedes the current decision, which stays in the history.' : 'Every member sees it on the card, the diagram and here.'}
            </Dialog.Description>
          </div>
          <form onSubmit={submit} noValidate className="flex min-h-0 flex-1 flex-col" aria-describedby={problem === null ? undefined : ids.problem}>
            <div className="min-h-0 flex-1 space-y-4 overflow-y-auto px-5 py-4">
              <fieldset>
                <legend className="text-sm font-medium text-slate-900">Outcome</legend>
                <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
                  {DECISION_OUTCOMES.map((value) => (
                    <label key={value} className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
                      <input
                        type="radio"
                        name="outcome"
                        value={value}
                        checked={outcome === value}
                        onChange={() => {
                          setOutcome(value);
                        }}
                      />
                      {DECISION_LABELS[value]}
                    </label>
                  ))}
                </div>
              </fieldset>
              <div>
                <label htmlFor={ids.rationale} className="text-sm font-medium text-slate-900">
                  Rationale
                </label>
                <textarea
                  id={ids.rationale}
                  required
                  rows={4}
                  maxLength={DECISION_RATIONALE_MAX_LENGTH}
                  value={rationale}
                  onChange={(event) => {
                    setRationale(event.target.value);
                  }}
                  placeholder="Why, and what has to happen next"
                  className="mt-1 w-full rounded-md border border-slate-500 px-3 py-2 text-sm focus:border-brand-600"
                />
              </div>
              <fieldset>
                <legend className="text-sm font-medium text-slate-900">Rests on these comments</legend>
                {comments.data === undefined ? (
                  <p className="mt-1 text-sm text-slate-600">Loading the comments…</p>
                ) : comments.data.length === 0 ? (
                  <p className="mt-1 text-sm text-slate-600">No comments on this component.</p>
                ) : (
                  <ul className="mt-2 max-h-40 space-y-1 overflow-y-auto">
                    {comments.data.map((comment) => (
                      <li key={comment.id}>
                        <label className="flex cursor-pointer gap-2 text-sm text-slate-800">
                          <input
                            type="checkbox"
                            className="mt-1"
                            checked={commentIds.has(comment.id)}
                            onChange={() => {
                              setCommentIds(toggle(commentIds, comment.id));
                            }}
                          />
                          <span>
                            <span className="font-medium">{comment.memberName}:</span> {excerpt(comment.content)}
                            {comment.resolution !== null && <span className="text-slate-600"> (resolved)</span>}
                          </span>
                        </label>
                      </li>
                    ))}
                  </ul>
                )}
              </fieldset>
              {related.length > 0 && (
                <fieldset>
                  <legend className="text-sm font-medium text-slate-900">And these suggestions</legend>
                  <ul className="mt-2 max-h-32 space-y-1 overflow-y-auto">
                    {related.map((suggestion) => (
                      <li key={suggestion.id}>
                        <label className="flex cursor-pointer gap-2 text-sm text-slate-800">
                          <input
                            type="checkbox"
                            className="mt-1"
                            checked={suggestionIds.has(suggestion.id)}
                            onChange={() => {
                              setSuggestionIds(toggle(suggestionIds, suggestion.id));
                            }}
                          />
                          <span>{excerpt(suggestion.suggestion)}</span>
                        </label>
                      </li>
                    ))}
                  </ul>
                </fieldset>
              )}
              <div>
                <label htmlFor={ids.password} className="text-sm font-medium text-slate-900">
                  Admin password
                </label>
                <Input
                  id={ids.password}
                  type="password"
                  autoComplete="off"
                  value={adminPassword}
                  onChange={(event) => {
                    setAdminPassword(event.target.value);
                  }}
                  className="mt-1"
                />
              </div>
              {problem !== null && (
                <p id={ids.problem} role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
                  {problem}
                </p>
              )}
            </div>
            <div className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3">
              <Dialog.Close asChild>
                <Button variant="outline">Cancel</Button>
              </Dialog.Close>
              <Button type="submit" disabled={record.isPending}>
                {record.isPending ? 'Recording...' : 'Record decision'}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
