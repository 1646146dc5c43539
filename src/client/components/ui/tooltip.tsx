import { Tooltip } from 'radix-ui';
import type { ReactElement, ReactNode } from 'react';

/**
 * A real tooltip for a control that shows an icon rather than words (or words that need more):
 * shown on hover after the app's delay (700 ms, 300 ms to move between tooltips) and at once on
 * keyboard focus, dismissed with Escape. The control keeps its own accessible name; the tooltip
 * repeats what it does for those who see only the icon.
 */
export function Tip({ label, side = 'top', children }: { label: ReactNode; side?: 'top' | 'bottom' | 'left' | 'right'; children: ReactElement }) {
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
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
  );
}
