import clsx from 'clsx';
import type { HTMLAttributes } from 'react';

/** A grey placeholder block for content on its way; decorative, so hidden from assistive technology. */
export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div aria-hidden="true" className={clsx('animate-pulse rounded-md bg-slate-200 motion-reduce:animate-none', className)} {...props} />;
}
