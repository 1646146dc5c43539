import { Toast } from 'radix-ui';
import { X } from 'lucide-react';
import clsx from 'clsx';
import { useRef } from 'react';
import { useToastPlacement } from './toast-placement';
import { dismissToast, useToasts } from './use-toast';

/**
 * Radix Toast gives the behaviour the app wants: F8 focuses the region, swipe right past
 * 50 px dismisses. The stack sits at the bottom (full width on a phone, bottom-right from 640 px),
 * clear of every header, and moves to the top when it would hide the focused control.
 */
export function Toaster() {
  const toasts = useToasts();
  const stack = useRef<HTMLOListElement>(null);
  const placement = useToastPlacement(stack, toasts.some((entry) => entry.open));
  return (
    <Toast.Provider duration={5000} swipeDirection="right" swipeThreshold={50} label="Notification">
      {toasts.map((entry) => (
        <Toast.Root
          key={entry.id}
          open={entry.open}
          duration={entry.duration}
          onOpenChange={(open) => {
            if (!open) dismissToast(entry.id);
          }}
          className={clsx(
            'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-8 shadow-lg transition-all',
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)]',
            'data-[state=closed]:opacity-0',
            entry.variant === 'destructive'
              ? 'destructive border-red-800 bg-red-700 text-white'
              : 'border-slate-200 bg-white text-slate-900',
          )}
        >
          <div className="grid gap-1">
            <Toast.Title className="text-sm font-semibold">{entry.title}</Toast.Title>
            {entry.description !== undefined && (
              <Toast.Description className="text-sm opacity-90">{entry.description}</Toast.Description>
            )}
          </div>
          <Toast.Close
            aria-label="Close"
            className="absolute right-2 top-2 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:opacity-100"
          >
            <X className="h-4 w-4" aria-hidden="true" />
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport
        ref={stack}
        data-edge={placement.edge}
        style={placement.edge === 'top' ? { top: placement.offset } : { bottom: 0 }}
        className="fixed z-[100] flex max-h-screen w-full flex-col p-4 sm:right-0 md:max-w-[420px]"
      />
    </Toast.Provider>
  );
}
