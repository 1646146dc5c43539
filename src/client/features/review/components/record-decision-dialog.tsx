import { Gavel } from 'lucide-react';
import { useId, useState } from 'react';
import { DECISION_LABELS, DECISION_OUTCOMES, type DecisionOutcome } from '../../../../common/api/decisions';
import { DECISION_RATIONALE_MAX_LENGTH } from '../../../../common/limits';
import { AdminFormDialog } from '../../../components/ui/admin-form-dialog';
import { Button } from '../../../components/ui/button';
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
  const ids = { rationale: useId() };
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

  const submit = () => {
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
    <AdminFormDialog
      wide
      trigger={
        <Button variant="outline" size="sm">
          <Gavel className="h-4 w-4" aria-hidden="true" />
          {superseding ? 'Record a new decision' : 'Record a decision'}
        </Button>
      }
      title={`Decision on ${componentTitle}`}
      description={superseding ? 'It supersedes the current decision, which stays in the history.' : 'Every member sees it on the card, the diagram and here.'}
      submitLabel="Record decision"
      pending={record.isPending}
      problem={problem}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setProblem(null);
      }}
      password={adminPassword}
      onPassword={setAdminPassword}
      onSubmit={submit}
    >
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
          <PickList
            items={comments.data.map((comment) => ({
              id: comment.id,
              text: `${comment.memberName}: ${excerpt(comment.content)}${comment.resolution === null ? '' : ' (resolved)'}`,
            }))}
            picked={commentIds}
            onToggle={(id) => {
              setCommentIds(toggle(commentIds, id));
            }}
          />
        )}
      </fieldset>
      {related.length > 0 && (
        <fieldset>
          <legend className="text-sm font-medium text-slate-900">And these suggestions</legend>
          <PickList
            items={related.map((suggestion) => ({ id: suggestion.id, text: excerpt(suggestion.suggestion) }))}
            picked={suggestionIds}
            onToggle={(id) => {
              setSuggestionIds(toggle(suggestionIds, id));
            }}
          />
        </fieldset>
      )}
    </AdminFormDialog>
  );
}

/** Checkboxes to pick what a decision rests on. */
function PickList({ items, picked, onToggle }: { items: ReadonlyArray<{ id: number; text: string }>; picked: ReadonlySet<number>; onToggle: (id: number) => void }) {
  return (
    <ul className="mt-2 max-h-40 space-y-1 overflow-y-auto">
      {items.map((item) => (
        <li key={item.id}>
          <label className="flex cursor-pointer gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="mt-1"
              checked={picked.has(item.id)}
              onChange={() => {
                onToggle(item.id);
              }}
            />
            <span>{item.text}</span>
          </label>
        </li>
      ))}
    </ul>
  );
}
