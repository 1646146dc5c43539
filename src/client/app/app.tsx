import { QueryClientProvider } from '@tanstack/react-query';
import { Tooltip } from 'radix-ui';
import { useState } from 'react';
import { Toaster } from '../components/ui/toaster';
import { forgetSignedInData } from '../lib/auth';
import { createQueryClient } from '../lib/query-client';
import { AuthGate } from './auth-gate';
import { ErrorBoundary } from './error-boundary';
import { AppRouter } from './router';

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
        <Toaster />
      </Tooltip.Provider>
    </QueryClientProvider>
  );
}
