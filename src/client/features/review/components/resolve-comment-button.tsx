import { CheckCircle2 } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useId, useState } from 'react';
import { RESOLUTION_NOTE_MAX_LENGTH } from '../../../../common/limits';
import type { Comment } from '../../../../common/contract/comments';
import { Button } from '../../../components/ui/button';
import { tip } from '../../../components/ui/tooltip';
import { useSetResolved } from '../api/resolve-comment';

/**
 * Marks a comment resolved, with an optional note on how it was dealt with. Shown to its author
 * and to admins (the server checks the same rule). Focus returns to this button when the dialog
 * closes; after a resolve the comment folds and focus goes to its 'Show' button instead.
 */
export function ResolveCommentButton({ comment }: { comment: Pick<Comment, 'id' | 'componentId'> }) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const noteId = useId();
  const resolve = useSetResolved(comment, {
    onSuccess: () => {
      setOpen(false);
      setNote('');
    },
  });
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button variant="ghost" size="sm" className="text-slate-700 hover:bg-emerald-50 hover:text-emerald-800" {...tip('Mark this point as dealt with')}>
          <CheckCircle2 className="h-4 w-4" aria-hidden="true" />
          Resolve
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-slate-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-[60] w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-5 shadow-xl">
          <Dialog.Title className="text-base font-semibold text-slate-900">Resolve this comment?</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-slate-600">
            It folds in the list for everyone and stops counting as open. Its votes stay, and anyone can reopen it.
          </Dialog.Description>
          <form
            className="mt-4"
            onSubmit={(event) => {
              event.preventDefault();
              // On a refusal the dialog closes for the toast to be read; the note stays for another try.
              resolve.mutate(
                { resolved: true, note },
                {
                  onError: () => {
                    setOpen(false);
                  },
                },
              );
            }}
          >
            <label htmlFor={noteId} className="text-sm font-medium text-slate-800">
              Note <span className="font-normal text-slate-600">(optional)</span>
            </label>
            <textarea
              id={noteId}
              value={note}
              maxLength={RESOLUTION_NOTE_MAX_LENGTH}
              rows={3}
              placeholder="How was it dealt with? e.g. covered by the change-record import"
              onChange={(event) => {
                setNote(event.target.value);
              }}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none"
            />
            <div className="mt-4 flex justify-end gap-2">
              <Dialog.Close asChild>
                <Button variant="outline">Cancel</Button>
              </Dialog.Close>
              <Button type="submit" disabled={resolve.isPending}>
                {resolve.isPending ? 'Resolving...' : 'Resolve'}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
