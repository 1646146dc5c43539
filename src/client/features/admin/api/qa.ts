import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { qaRoutes } from '../../../../common/api/qa';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError } from '../../../lib/api-client';
import { refetchChangedBy } from '../../../lib/live-invalidation';
import { queryKeys } from '../../../lib/query-keys';

const PROGRESS_POLL_MS = 1_000;

/** The last finished run and its checks. */
export function useQaResults() {
  return useQuery({
    queryKey: queryKeys.qaResults,
    queryFn: ({ signal }) => api(qaRoutes.testResults, { query: { latest: 'true' } }, { signal }),
    refetchOnMount: 'always',
  });
}

/**
 * Which suite is running. Asked once when the tab opens (a run may have been started by another
 * admin), then every second while this tab's own run is on its way or the server reports a run;
 * the 'qa.progress' live event refetches it as well.
 */
export function useQaProgress(ownRunPending: boolean) {
  const queryClient = useQueryClient();
  const progress = useQuery({
    queryKey: queryKeys.qaProgress,
    queryFn: ({ signal }) => api(qaRoutes.progress, undefined, { signal }),
    refetchOnMount: 'always',
    refetchInterval: (query) => (ownRunPending || query.state.data?.running === true ? PROGRESS_POLL_MS : false),
  });
  // A run another admin started ends without a call of this tab settling: its results are new too.
  const running = progress.data?.running === true;
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) void queryClient.invalidateQueries({ queryKey: queryKeys.qaResults });
    wasRunning.current = running;
  }, [running, queryClient]);
  return progress;
}

/** Runs every suite (up to ~30 s) and answers with the counts; 409 while another run is in progress. */
export function useRunQaTests() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(qaRoutes.runTests),
    // Show the first suite at once rather than after the first poll.
    onMutate: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.qaProgress });
    },
    onSuccess: async (summary) => {
      toast({ title: 'QA Tests Completed', description: `${summary.passed}/${summary.totalTests} tests passed` });
      // No live event names the results (only the progress), so the run's own results are asked for here.
      await Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.qaResults }), refetchChangedBy(queryClient, { type: 'qa.progress' })]);
    },
    onError: async (error) => {
      toast({ title: 'Error', description: describeError(error, 'Failed to run the QA tests'), variant: 'destructive' });
      await refetchChangedBy(queryClient, { type: 'qa.progress' });
    },
  });
}
