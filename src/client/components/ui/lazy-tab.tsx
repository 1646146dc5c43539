import { Suspense, type ReactNode } from 'react';
import { Card } from './card';
import { ListSkeleton } from './panel';

/** A tab whose code is on its way: a skeleton in a card, like the tab's own loading state. */
export function LazyTab({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <Card className="p-5 sm:p-6">
          <ListSkeleton label="Loading…" rows={5} />
        </Card>
      }
    >
      {children}
    </Suspense>
  );
}
