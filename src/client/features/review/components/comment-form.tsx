import clsx from 'clsx';
import { Send } from 'lucide-react';
import { useId, useState, type RefObject } from 'react';
import type { CommentKind } from '../../../../common/contract/comments';
import { COMMENT_MAX_LENGTH } from '../../../../common/limits';
import { Button } from '../../../components/ui/button';
import { useCreateComment } from '../api/create-comment';
import { useCommentDraft } from '../comment-draft';

const KINDS: readonly { value: CommentKind; label: string }[] = [
  { value: 'comment', label: 'Comment' },
  { value: 'proposal', label: 'Change proposal' },
];

const numberFormat = new Intl.NumberFormat('en');

/**
 * The text is trimmed and may not be empty; the server also caps it at 5,000
 * characters, which the field enforces as you type. Submit is disabled while empty or posting;
 * Ctrl+Enter (Cmd+Enter) posts from the keyboard. Unsent text is kept as the member's draft for
 * this component and comes back when the form opens again, even after signing in anew.
 */
export function CommentForm({ componentId, componentTitle, textareaRef }: { componentId: string; componentTitle: string; textareaRef: RefObject<HTMLTextAreaElement | null> }) {
  const draft = useCommentDraft(componentId);
  const [kind, setKind] = useState<CommentKind>(draft.restored?.kind ?? 'comment');
  const [text, setText] = useState(draft.restored?.text ?? '');
  const create = useCreateComment({
    // Also when the panel has closed meanwhile: the posted text must not come back as a draft.
    onSuccess: () => {
      draft.discard();
      setText('');
      setKind('comment');
    },
  });
  const ids = useId();
  const fieldId = `${ids}-text`;
  const counterId = `${ids}-counter`;
  const hintId = `${ids}-hint`;
  const trimmed = text.trim();
  const canSubmit = trimmed !== '' && !create.isPending;
  const proposal = kind === 'proposal';

  const submit = () => {
    if (!canSubmit) return;
    // Stored before the call: an answer of 401 replaces the page with the sign-in screen.
    draft.flush();
    create.mutate(
      { componentId, content: trimmed, kind },
      {
        // The submit button is disabled while posting, which drops keyboard focus out of the panel;
        // the text field takes it back, ready for the next comment (or to fix this one).
        onSettled: () => {
          textareaRef.current?.focus();
        },
      },
    );
  };

  return (
    <form
      aria-label={`Add a comment on ${componentTitle}`}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      className="rounded-xl border border-slate-200 bg-slate-50 p-3"
    >
      <fieldset>
        <legend className="sr-only">Type</legend>
        <div className="grid grid-cols-2 gap-1 rounded-lg bg-slate-200/70 p-1">
          {KINDS.map((option) => (
            <label
              key={option.value}
              className={clsx(
                'flex cursor-pointer items-center justify-center rounded-md px-2 py-1.5 text-sm font-medium transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-brand-600',
                kind === option.value ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-700 hover:text-slate-900',
              )}
            >
              <input
                type="radio"
                name={`${ids}-kind`}
                value={option.value}
                checked={kind === option.value}
                onChange={() => {
                  setKind(option.value);
                  draft.save(text, option.value);
                }}
                className="sr-only"
              />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>

      <label htmlFor={fieldId} className="mt-3 block text-sm font-semibold text-slate-900">
        {proposal ? 'Your change proposal' : 'Your comment'}
      </label>
      <textarea
        ref={textareaRef}
        id={fieldId}
        value={text}
        maxLength={COMMENT_MAX_LENGTH}
        rows={4}
        aria-describedby={`${counterId} ${hintId}`}
        placeholder={proposal ? 'What should change, and why?' : 'A question, a concern or an idea…'}
        onChange={(event) => {
          setText(event.target.value);
          draft.save(event.target.value, kind);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            submit();
          }
        }}
        className="mt-1 block w-full resize-y rounded-lg border border-slate-500 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-600 sm:text-sm"
      />
      <div className="mt-2 flex items-center justify-between gap-3">
        <div className="text-xs text-slate-600">
          <p id={counterId} className={clsx('tabular-nums', text.length >= COMMENT_MAX_LENGTH ? 'font-semibold text-red-700' : text.length > COMMENT_MAX_LENGTH * 0.9 && 'text-amber-800')}>
            {numberFormat.format(text.length)} / {numberFormat.format(COMMENT_MAX_LENGTH)}
            <span className="sr-only"> characters</span>
          </p>
          <p id={hintId} className="hidden sm:block">
            Ctrl+Enter to post
          </p>
        </div>
        <Button type="submit" size="sm" disabled={!canSubmit}>
          <Send className="h-4 w-4" aria-hidden="true" />
          {create.isPending ? 'Posting...' : proposal ? 'Post proposal' : 'Post comment'}
        </Button>
      </div>
    </form>
  );
}
