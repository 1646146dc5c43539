import clsx from 'clsx';
import { useId, type ReactNode } from 'react';
import { Card } from './card';
import { Skeleton } from './skeleton';

/** One card of a page or tab: a titled section (h2, as the page's h1 is in the header), with room for actions beside the title. */
export function Panel({
  title,
  description,
  icon,
  actions,
  children,
  className,
}: {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const headingId = useId();
  return (
    <Card className={clsx('p-5 sm:p-6', className)}>
      <section aria-labelledby={headingId}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
              {icon}
              {title}
            </h2>
            {description !== undefined && <div className="mt-1 text-sm text-slate-600">{description}</div>}
          </div>
          {actions}
        </div>
        <div className="mt-4">{children}</div>
      </section>
    </Card>
  );
}

/** Data on its way: a few grey rows, announced once to screen readers. */
export function ListSkeleton({ label, rows = 3 }: { label: string; rows?: number }) {
  return (
    <div role="status" className="space-y-3">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, row) => (
        <div key={row} className="flex items-center gap-4">
          <Skeleton className="h-4 flex-1" />
          <Skeleton className="h-5 w-20" />
          <Skeleton className="h-8 w-24" />
        </div>
      ))}
    </div>
  );
}

/** Nothing to show. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600">{children}</p>;
}
