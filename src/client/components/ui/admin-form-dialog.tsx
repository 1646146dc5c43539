import clsx from 'clsx';
import { Dialog } from 'radix-ui';
import { useId, type ReactNode, type SyntheticEvent } from 'react';
import { Button } from './button';
import { Input } from './input';

interface AdminFormDialogProps {
  trigger: ReactNode;
  title: string;
  description: string;
  submitLabel: string;
  pending: boolean;
  /** The form's own check, or the server's refusal: shown inside, the fields keep what was typed. */
  problem: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSubmit: () => void;
  password: string;
  onPassword: (value: string) => void;
  /** Room for a longer form (lists to pick from); its fields scroll between the title and the buttons. */
  wide?: boolean;
  children: ReactNode;
}

/**
 * An admin action's form in a dialog: its fields, then the admin password the server checks, a
 * refusal shown inside, and Cancel / submit. Radix keeps focus inside and gives it back to the
 * trigger when the dialog closes.
 */
export function AdminFormDialog({ trigger, title, description, submitLabel, pending, problem, open, onOpenChange, onSubmit, password, onPassword, wide = false, children }: AdminFormDialogProps) {
  const passwordId = useId();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-slate-900/40" />
        <Dialog.Content
          className={clsx(
            'fixed top-1/2 left-1/2 z-[60] flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl bg-white shadow-xl',
            wide ? 'max-w-lg' : 'max-w-md',
          )}
        >
          <div className="px-5 pt-5">
            <Dialog.Title className="text-base font-semibold text-slate-900">{title}</Dialog.Title>
            <Dialog.Description className="mt-1 text-sm break-words text-slate-600">{description}</Dialog.Description>
          </div>
          <form
            noValidate
            className="flex min-h-0 flex-1 flex-col"
            onSubmit={(event: SyntheticEvent) => {
              event.preventDefault();
              onSubmit();
            }}
          >
            <div className="min-h-0 flex-1 space-y-4 overflow-y-auto px-5 py-4">
              {children}
              <div>
                <label htmlFor={passwordId} className="text-sm font-medium text-slate-900">
                  Admin password
                </label>
                <Input
                  id={passwordId}
                  type="password"
                  autoComplete="off"
                  value={password}
                  onChange={(event) => {
                    onPassword(event.target.value);
                  }}
                  className="mt-1"
                />
              </div>
              {problem !== null && (
                <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
                  {problem}
                </p>
              )}
            </div>
            <div className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3">
              <Dialog.Close asChild>
                <Button variant="outline">Cancel</Button>
              </Dialog.Close>
              <Button type="submit" disabled={pending}>
                {pending ? 'Saving...' : submitLabel}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
