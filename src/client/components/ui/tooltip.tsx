import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { createPortal } from 'react-dom';

/**
 * Tooltips for controls that show an icon rather than words (or words that need more). A control
 * asks for one with `{...tip('Delete comment')}`: the label travels as a data attribute, and one
 * layer for the whole app (`TooltipLayer`) shows it. One layer rather than a tooltip component per
 * control: a page of suggestions has two vote buttons a row, and a component tree per control was a
 * good part of the page's first render on a phone.
 *
 * The behaviour is the app's tooltip rule: on hover after 700 ms, at once when the pointer moves
 * on from another tooltip within 300 ms, at once on keyboard focus; Escape, a press, scrolling or
 * leaving dismisses it (Escape on a hover tooltip also reaches the dialog below, which closes); the pointer may move onto the tooltip without it closing (WCAG 1.4.13).
 * The control keeps its own accessible name; while shown, the tooltip also describes it.
 */

export type TipSide = 'top' | 'bottom';

interface TipAttributes {
  'data-tip': string;
  'data-tip-side'?: TipSide;
}

/** The attributes that give a control a tooltip. */
export function tip(label: string, side: TipSide = 'top'): TipAttributes {
  return side === 'top' ? { 'data-tip': label } : { 'data-tip': label, 'data-tip-side': side };
}

const OPEN_DELAY_MS = 700;
const SKIP_DELAY_MS = 300;
/** Time for the pointer to cross from the control onto its tooltip. */
const LEAVE_GRACE_MS = 100;
/** Space between the control and its tooltip, and kept from the window's edges. */
const OFFSET_PX = 6;
const EDGE_PX = 8;
const TOOLTIP_ID = 'app-tooltip';

interface Shown {
  target: HTMLElement;
  label: string;
  side: TipSide;
}

function tipTargetOf(node: EventTarget | null): HTMLElement | null {
  return node instanceof Element ? node.closest<HTMLElement>('[data-tip]') : null;
}

function shownFor(target: HTMLElement): Shown {
  return { target, label: target.dataset.tip ?? '', side: target.dataset.tipSide === 'bottom' ? 'bottom' : 'top' };
}

/** Mounted once beside the app: watches pointer and focus for controls with `tip(…)` and shows their tooltip. */
export function TooltipLayer() {
  const [shown, setShown] = useState<Shown | null>(null);

  useEffect(() => {
    let current: Shown | null = null;
    let openTimer: number | undefined;
    let closeTimer: number | undefined;
    let lastClosedAt = Number.NEGATIVE_INFINITY;
    let restoreDescription: (() => void) | null = null;
    // While shown, a changed label (a vote pressed) shows at once, and a control that leaves the
    // page takes its tooltip with it.
    const observer = new MutationObserver(() => {
      if (current === null) return;
      if (!current.target.isConnected || current.target.dataset.tip === undefined) close();
      else if (current.target.dataset.tip !== current.label) show(shownFor(current.target));
    });
    /** Shows a tooltip (or none), the control described by it while it shows. */
    const show = (next: Shown | null) => {
      restoreDescription?.();
      restoreDescription = null;
      observer.disconnect();
      current = next;
      setShown(next);
      if (next === null) return;
      const { target } = next;
      const described = target.getAttribute('aria-describedby');
      if (described?.split(' ').includes(TOOLTIP_ID) !== true) {
        target.setAttribute('aria-describedby', described === null ? TOOLTIP_ID : `${described} ${TOOLTIP_ID}`);
        restoreDescription = () => {
          if (described === null) target.removeAttribute('aria-describedby');
          else target.setAttribute('aria-describedby', described);
        };
      }
      observer.observe(target, { attributes: true, attributeFilter: ['data-tip'] });
      observer.observe(document.body, { childList: true, subtree: true });
    };
    const clearTimers = () => {
      window.clearTimeout(openTimer);
      window.clearTimeout(closeTimer);
    };
    // Whether the tooltip showing came with keyboard focus (the member is at that control) or with
    // a resting pointer (a tooltip they may not even be looking at).
    let shownByFocus = false;
    const open = (target: HTMLElement, byFocus = false) => {
      clearTimers();
      shownByFocus = byFocus;
      show(shownFor(target));
    };
    function close() {
      clearTimers();
      if (current === null) return;
      lastClosedAt = performance.now();
      show(null);
    }
    const onTooltip = (node: EventTarget | null) => node instanceof Element && node.closest(`#${TOOLTIP_ID}`) !== null;

    const onPointerOver = (event: PointerEvent) => {
      if (event.pointerType === 'touch') return;
      if (onTooltip(event.target)) {
        window.clearTimeout(closeTimer);
        return;
      }
      const target = tipTargetOf(event.target);
      if (target === null) return;
      if (current?.target === target) {
        window.clearTimeout(closeTimer);
        return;
      }
      clearTimers();
      if (current !== null || performance.now() - lastClosedAt < SKIP_DELAY_MS) {
        open(target);
        return;
      }
      openTimer = window.setTimeout(() => {
        open(target);
      }, OPEN_DELAY_MS);
    };
    const onPointerOut = (event: PointerEvent) => {
      const from = tipTargetOf(event.target) ?? (onTooltip(event.target) ? (current?.target ?? null) : null);
      if (from === null) return;
      const to = event.relatedTarget;
      // Moving within the control, or between the control and its tooltip, keeps it.
      if (to instanceof Node && (from.contains(to) || onTooltip(to))) return;
      window.clearTimeout(openTimer);
      if (current === null) return;
      window.clearTimeout(closeTimer);
      closeTimer = window.setTimeout(close, LEAVE_GRACE_MS);
    };
    const onFocusIn = (event: FocusEvent) => {
      const target = tipTargetOf(event.target);
      // Only keyboard focus: a click focuses the control too, and should not raise its tooltip.
      if (target !== null && target === event.target && target.matches(':focus-visible')) open(target, true);
      else if (current !== null && current.target !== target) close();
    };
    const onFocusOut = (event: FocusEvent) => {
      if (current !== null && event.target === current.target) close();
    };
    // Escape closes a tooltip shown on keyboard focus alone, as the topmost layer: the dialog it
    // sits in stays open and the focus stays put (WCAG 1.4.13). A tooltip raised by a resting
    // pointer closes too, but the key goes on: Escape still closes the panel the member is in.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || current === null) return;
      if (shownByFocus) event.stopPropagation();
      close();
    };
    // One signal removes every listener when the layer goes.
    const listening = new AbortController();
    const { signal } = listening;
    document.addEventListener('pointerover', onPointerOver, { signal });
    document.addEventListener('pointerout', onPointerOut, { signal });
    document.addEventListener('focusin', onFocusIn, { signal });
    document.addEventListener('focusout', onFocusOut, { signal });
    // On the window, capturing: before a dialog's own Escape handler on the document.
    window.addEventListener('keydown', onKeyDown, { capture: true, signal });
    document.addEventListener('pointerdown', close, { capture: true, signal });
    window.addEventListener('scroll', close, { capture: true, signal });
    window.addEventListener('resize', close, { signal });
    return () => {
      listening.abort();
      clearTimers();
      observer.disconnect();
      restoreDescription?.();
    };
  }, []);

  return shown === null ? null : createPortal(<TooltipBubble shown={shown} />, document.body);
}

/** The tooltip beside its control: above it (or below when asked), flipped when there is no room, kept inside the window. */
function TooltipBubble({ shown }: { shown: Shown }) {
  const bubble = useRef<HTMLDivElement>(null);
  const [style, setStyle] = useState<CSSProperties>({ visibility: 'hidden', top: 0, left: 0 });
  const [placed, setPlaced] = useState<TipSide>(shown.side);
  useLayoutEffect(() => {
    const element = bubble.current;
    if (element === null) return;
    const anchor = shown.target.getBoundingClientRect();
    const { width, height } = element.getBoundingClientRect();
    const roomAbove = anchor.top - OFFSET_PX - height >= EDGE_PX;
    const roomBelow = anchor.bottom + OFFSET_PX + height <= window.innerHeight - EDGE_PX;
    const side: TipSide = shown.side === 'top' ? (roomAbove || !roomBelow ? 'top' : 'bottom') : roomBelow || !roomAbove ? 'bottom' : 'top';
    const top = side === 'top' ? anchor.top - OFFSET_PX - height : anchor.bottom + OFFSET_PX;
    const centred = anchor.left + anchor.width / 2 - width / 2;
    const left = Math.min(Math.max(centred, EDGE_PX), window.innerWidth - EDGE_PX - width);
    setPlaced(side);
    setStyle({ top, left, ['--tip-arrow-x' as string]: `${anchor.left + anchor.width / 2 - left}px` });
  }, [shown]);
  return (
    <div
      ref={bubble}
      id={TOOLTIP_ID}
      role="tooltip"
      data-side={placed}
      style={style}
      className="pointer-events-auto fixed z-[70] max-w-64 rounded-md bg-slate-900 px-2.5 py-1.5 text-xs leading-snug font-medium text-white shadow-lg"
    >
      {shown.label}
      <span
        aria-hidden="true"
        className="absolute h-2 w-2 -translate-x-1/2 rotate-45 bg-slate-900 data-[side=bottom]:-top-1 data-[side=top]:-bottom-1"
        data-side={placed}
        style={{ left: 'var(--tip-arrow-x)' }}
      />
    </div>
  );
}
