import clsx from 'clsx';
import type { ReactNode } from 'react';

/**
 * A box that scrolls its content (a wide or long table): a labelled region that takes focus, so
 * that a keyboard can scroll it too, with a visible ring when it has that focus.
 */
export function ScrollRegion({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={clsx('relative focus-visible:outline-2 focus-visible:outline-brand-600', className)}>
      {children}
    </div>
  );
}
