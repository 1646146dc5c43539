import { AlertDialog } from 'radix-ui';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useDeleteComment } from '../api/delete-comment';
import { tip } from '../../../components/ui/tooltip';

/**
 * Shown only on the member's own comments (the server checks authorship too), and
 * asks first: a deleted comment takes its votes with it and cannot come back.
 */
export function DeleteCommentButton({ commentId, componentId, onDeleted }: { commentId: number; componentId: string; onDeleted: () => void }) {
  const [open, setOpen] = useState(false);
  const [deleted, setDeleted] = useState(false);
  const remove = useDeleteComment(componentId, {
    onSuccess: () => {
      setDeleted(true);
      setOpen(false);
    },
  });
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger asChild>
        <Button variant="ghost" size="sm" className="ml-auto text-slate-600 hover:bg-red-50 hover:text-red-700" aria-label="Delete comment" {...tip('Delete comment')}>
          <Trash2 className="h-4 w-4" aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Delete</span>
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-[60] bg-slate-900/40" />
        <AlertDialog.Content
          className="fixed top-1/2 left-1/2 z-[60] w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-5 shadow-xl"
          onCloseAutoFocus={(event) => {
            // The button that opened this is gone with its comment: focus goes to the list instead.
            if (deleted) {
              event.preventDefault();
              onDeleted();
            }
          }}
        >
          <AlertDialog.Title className="text-base font-semibold text-slate-900">Delete this comment?</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-600">
            It is removed for the whole team, together with its votes. This cannot be undone.
          </AlertDialog.Description>
          <div className="mt-5 flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button variant="outline">Cancel</Button>
            </AlertDialog.Cancel>
            <Button
              variant="destructive"
              disabled={remove.isPending}
              onClick={() => {
                remove.mutate(commentId, {
                  onError: () => {
                    setOpen(false);
                  },
                });
              }}
            >
              {remove.isPending ? 'Deleting...' : 'Delete'}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
