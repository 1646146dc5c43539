import { useCallback, useRef, useState } from 'react';
import type { ReviewTarget } from './review-target';

/** The panel module is fetched on first use and prefetched when a Comment button is hovered or focused. */
const importPanel = () => import('./components/comment-panel');
let panelModule: ReturnType<typeof importPanel> | undefined;
export function loadCommentPanel() {
  panelModule ??= importPanel();
  return panelModule;
}

export type OpenComments = (target: ReviewTarget, opener: HTMLElement | null) => void;

/**
 * Which component the comment panel shows, and where focus goes back to when it closes: the
 * button that opened it, or that component's Comment button when the opener is gone.
 */
export function useCommentPanel() {
  const [target, setTarget] = useState<ReviewTarget | null>(null);
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);

  const openComments = useCallback<OpenComments>((next, from) => {
    opener.current = from;
    setTarget(next);
    setOpen(true);
  }, []);

  const restoreFocus = useCallback(() => {
    const from = opener.current;
    if (from?.isConnected === true) {
      from.focus();
      return;
    }
    if (target === null) return;
    document.querySelector<HTMLElement>(`[data-comment-trigger="${CSS.escape(target.id)}"]`)?.focus();
  }, [target]);

  return { target, open, setOpen, openComments, restoreFocus };
}
