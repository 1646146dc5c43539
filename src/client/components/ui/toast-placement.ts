import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Where the toast stack sits. At the bottom edge it never covers a header or the Close button of the
 * layer on top (the comment panel's); when it would hide the focused control there (WCAG 2.4.11), it
 * moves to the top, just under that layer's header. The two bands cannot both hold a control on any
 * screen the app supports, so one of them is always free.
 */
export type ToastPlacement = { edge: 'bottom' } | { edge: 'top'; offset: number };

export const BOTTOM: ToastPlacement = { edge: 'bottom' };

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

interface PlacementInput {
  /** The focused element's box, or null when nothing (or the whole document) has focus. */
  focused: Box | null;
  /** The horizontal extent and the height of the toast stack, wherever it sits now. */
  stack: { left: number; right: number; height: number };
  viewportHeight: number;
  /** The bottom edge of the header of the layer on top; what the stack must not cover when at the top. */
  headerBottom: number;
}

export function placeToast({ focused, stack, viewportHeight, headerBottom }: PlacementInput): ToastPlacement {
  if (focused === null || stack.height === 0) return BOTTOM;
  const bottomBandTop = viewportHeight - stack.height;
  const sideBySide = focused.right <= stack.left || focused.left >= stack.right;
  const hiddenAtBottom = !sideBySide && focused.top >= bottomBandTop && focused.bottom <= viewportHeight;
  return hiddenAtBottom ? { edge: 'top', offset: Math.max(0, Math.round(headerBottom)) } : BOTTOM;
}

function samePlacement(a: ToastPlacement, b: ToastPlacement): boolean {
  return a.edge === 'bottom' ? b.edge === 'bottom' : b.edge === 'top' && a.offset === b.offset;
}

/** The header of the topmost layer: an open dialog's, else the page's banner. */
function topLayerHeaderBottom(): number {
  const dialogs = document.querySelectorAll('[role="dialog"][data-state="open"]');
  const layer = dialogs.length > 0 ? dialogs[dialogs.length - 1] : document;
  return layer?.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
}

function focusedBox(): Box | null {
  const element = document.activeElement;
  if (element === null || element === document.body || element === document.documentElement) return null;
  return element.getBoundingClientRect();
}

/**
 * Keeps the placement current while a toast is shown: when it appears, when focus moves and when
 * anything scrolls or the window resizes (the focused control moves with them).
 */
export function useToastPlacement(stackRef: RefObject<HTMLElement | null>, showing: boolean): ToastPlacement {
  const [placement, setPlacement] = useState<ToastPlacement>(BOTTOM);

  const update = useCallback(() => {
    const stack = stackRef.current?.getBoundingClientRect();
    if (stack === undefined) return;
    const next = placeToast({ focused: focusedBox(), stack, viewportHeight: window.innerHeight, headerBottom: topLayerHeaderBottom() });
    setPlacement((current) => (samePlacement(current, next) ? current : next));
  }, [stackRef]);

  useLayoutEffect(() => {
    if (!showing) return;
    update();
    document.addEventListener('focusin', update);
    document.addEventListener('scroll', update, { capture: true, passive: true });
    window.addEventListener('resize', update);
    return () => {
      document.removeEventListener('focusin', update);
      document.removeEventListener('scroll', update, { capture: true });
      window.removeEventListener('resize', update);
    };
  }, [showing, update]);

  // Without a toast it is moot; a new toast is placed by the layout effect before it is painted.
  return showing ? placement : BOTTOM;
}
