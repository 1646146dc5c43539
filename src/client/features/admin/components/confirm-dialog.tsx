import { AlertDialog } from 'radix-ui';
import { buttonClasses } from '../../../components/ui/button';
import { useEscapeCloses } from '../../../lib/use-escape-closes';
import { useReturnFocus } from '../return-focus';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: () => void;
}

/**
 * A modal question before an action that cannot be taken back quietly. Radix AlertDialog keeps
 * focus inside and starts it on Cancel, so Enter alone never confirms; closed, it gives focus back
 * to the control that opened it.
 */
export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, onConfirm }: ConfirmDialogProps) {
  useEscapeCloses(open, onOpenChange);
  const returnFocus = useReturnFocus();
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <AlertDialog.Content
          {...returnFocus}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-slate-200 bg-white p-6 shadow-2xl outline-none"
        >
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-700">{description}</AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel className={buttonClasses('outline')}>Cancel</AlertDialog.Cancel>
            <AlertDialog.Action className={buttonClasses('destructive')} onClick={onConfirm}>
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/**
 * Reset PIN's question, asked from the member list and from a member's request alike. Mounted only
 * while asked (open from the start): a list of 200 rows keeps no closed dialog per row.
 */
export function ResetPinConfirmDialog({ memberName, onOpenChange, onConfirm }: { memberName: string; onOpenChange: (open: boolean) => void; onConfirm: () => void }) {
  return (
    <ConfirmDialog
      open
      onOpenChange={onOpenChange}
      title={`Reset the PIN of ${memberName}?`}
      description={`${memberName}'s PIN stops working and they are signed out on every device. You get a new enrollment link to send them, with which they create a new PIN.`}
      confirmLabel="Reset PIN"
      onConfirm={onConfirm}
    />
  );
}
