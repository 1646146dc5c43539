import { Tooltip } from 'radix-ui';
import { useState, type ReactElement, type ReactNode } from 'react';

export interface TipProps {
  label: ReactNode;
  side?: 'top' | 'bottom' | 'left' | 'right';
  children: ReactElement;
}

/** Tooltips open after 700 ms; moving to another within 300 ms of one closing opens it at once. */
const OPEN_DELAY_MS = 700;
const SKIP_DELAY_MS = 300;

/**
 * When the last tooltip closed, shared by every tooltip. Each tooltip has its own Radix provider
 * (one around the whole app would pull Radix Tooltip and its positioning code into every page's
 * first load), so the "move between tooltips without waiting" rule Radix's provider keeps is kept
 * here instead: a tooltip entered within 300 ms of another closing opens without the delay.
 */
let lastClosedAt = Number.NEGATIVE_INFINITY;

/** The Radix tooltip itself, loaded beside the page by `Tip` (see tooltip.tsx). */
export function RadixTip({ label, side = 'top', children }: TipProps) {
  const [delay, setDelay] = useState(OPEN_DELAY_MS);
  const chooseDelay = () => {
    setDelay(performance.now() - lastClosedAt < SKIP_DELAY_MS ? 0 : OPEN_DELAY_MS);
  };
  return (
    <Tooltip.Provider delayDuration={OPEN_DELAY_MS} skipDelayDuration={SKIP_DELAY_MS}>
      <Tooltip.Root
        delayDuration={delay}
        onOpenChange={(open) => {
          if (!open) lastClosedAt = performance.now();
        }}
      >
        {/* Pointer-enter comes before the pointer-move that starts Radix's open timer, so the delay is set in time. */}
        <Tooltip.Trigger asChild onPointerEnter={chooseDelay}>
          {children}
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content
            side={side}
            sideOffset={6}
            collisionPadding={8}
            className="z-[60] max-w-64 rounded-md bg-slate-900 px-2.5 py-1.5 text-xs leading-snug font-medium text-white shadow-lg"
          >
            {label}
            <Tooltip.Arrow className="fill-slate-900" />
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
