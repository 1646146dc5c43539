import { useEffect } from 'react';

/**
 * Escape closes a Radix dialog even when another layer sits on top of it. Radix lets only the
 * topmost layer handle Escape, and a toast that appeared after the dialog opened is such a layer:
 * Escape would close the toast and leave the dialog open. A layer that handles Escape itself (the
 * dialog when it is on top, a confirmation inside it) marks the event handled, and this leaves it.
 */
export function useEscapeCloses(open: boolean, onOpenChange: (open: boolean) => void) {
  useEffect(() => {
    if (!open) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) onOpenChange(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open, onOpenChange]);
}
