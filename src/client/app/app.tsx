import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { TooltipLayer } from '../components/ui/tooltip';
import { useToasts } from '../components/ui/use-toast';
import { forgetSignedInData } from '../lib/auth';
import { useAfterIdle } from '../lib/use-after-idle';
import { createQueryClient } from '../lib/query-client';
import { AuthGate } from './auth-gate';
import { ErrorBoundary } from './error-boundary';
import { AppRouter } from './router';

// Radix Toast is a sixth of the entry's weight and nothing needs it before the first screen: it
// loads once the first page has had its start (2 s, then an idle moment), or as soon as a toast is
// raised. A toast raised meanwhile waits in the store and shows when it arrives.
const Toaster = lazy(() => import('../components/ui/toaster').then((module) => ({ default: module.Toaster })));

const TOASTER_AFTER_MS = 2000;

function DeferredToaster() {
  const idle = useAfterIdle({ afterMs: TOASTER_AFTER_MS });
  const toasts = useToasts();
  if (!idle && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {/* Try Again fetches every answer afresh (the member stays signed in). */}
      <ErrorBoundary
        onReset={() => {
          forgetSignedInData(queryClient);
        }}
      >
        <AuthGate>
          <AppRouter />
        </AuthGate>
      </ErrorBoundary>
      <DeferredToaster />
      <TooltipLayer />
    </QueryClientProvider>
  );
}
