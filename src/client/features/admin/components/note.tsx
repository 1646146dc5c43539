import clsx from 'clsx';
import type { ReactNode } from 'react';

/** A note beside a form: what to know before acting. */
export function Note({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={clsx('rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-900', className)}>{children}</div>;
}
