import { useRef } from 'react';

/**
 * Radix gives focus back only to a dialog's own Trigger. The panel's dialogs open from code (a
 * row's action, a confirmation after unlocking), so focus would fall to the page when they close.
 * Spread on a Radix Content: it notes what had focus as the dialog opened and focuses it again
 * when it closes, if it is still on the page. `afterReturn` runs once focus is back.
 */
export function useReturnFocus(afterReturn?: () => void) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const element = opener.current;
      opener.current = null;
      if (element?.isConnected === true) {
        event.preventDefault();
        element.focus();
      }
      afterReturn?.();
    },
  };
}
