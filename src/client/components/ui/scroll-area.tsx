import clsx from 'clsx';
import { ScrollArea as Radix } from 'radix-ui';
import type { ReactNode, Ref } from 'react';

/** The scroll bar hides 600 ms after scrolling or hovering stops. */
const SCROLL_HIDE_DELAY_MS = 600;

/**
 * A long list's own scroll bar, the same on every platform: it shows while the pointer is over the
 * list or it scrolls, and its thumb is never shorter than 18 px (Radix's minimum), so a long list
 * stays easy to grab. The viewport scrolls with the wheel, touch and the keyboard like every scrolling box.
 * `label` makes the viewport a focusable region for lists with nothing focusable inside.
 */
export function ScrollArea({
  className,
  viewportClassName,
  viewportRef,
  label,
  children,
}: {
  className?: string;
  viewportClassName?: string;
  viewportRef?: Ref<HTMLDivElement>;
  label?: string;
  children: ReactNode;
}) {
  return (
    <Radix.Root type="hover" scrollHideDelay={SCROLL_HIDE_DELAY_MS} className={clsx('relative overflow-hidden', className)}>
      <Radix.Viewport
        ref={viewportRef}
        className={clsx('h-full w-full focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-600', viewportClassName)}
        {...(label === undefined ? {} : { role: 'region', 'aria-label': label, tabIndex: 0 })}
      >
        {children}
      </Radix.Viewport>
      <Radix.Scrollbar
        orientation="vertical"
        className="flex w-2.5 touch-none p-0.5 transition-colors select-none data-[state=hidden]:opacity-0 data-[state=visible]:opacity-100"
      >
        <Radix.Thumb data-scroll-thumb="" className="relative flex-1 rounded-full bg-slate-400/70 hover:bg-slate-500" />
      </Radix.Scrollbar>
    </Radix.Root>
  );
}
