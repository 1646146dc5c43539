import { QueryClientProvider } from '@tanstack/react-query';
import { Tooltip } from 'radix-ui';
import { lazy, Suspense, useState } from 'react';
import { forgetSignedInData } from '../lib/auth';
import { createQueryClient } from '../lib/query-client';
import { AuthGate } from './auth-gate';
import { ErrorBoundary } from './error-boundary';
import { AppRouter } from './router';

// Radix Toast is a sixth of the entry's weight and nothing needs it before the first screen: it
// loads beside the page. A toast raised meanwhile waits in the store and shows when it arrives.
const Toaster = lazy(() => import('../components/ui/toaster').then((module) => ({ default: module.Toaster })));

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {/* Tooltips open after 700 ms; moving between them within 300 ms skips the delay. */}
      <Tooltip.Provider delayDuration={700} skipDelayDuration={300}>
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
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </Tooltip.Provider>
    </QueryClientProvider>
  );
}
