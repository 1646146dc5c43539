import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorReportRoutes } from '../../../../common/api/error-reports';
import { toast } from '../../../components/ui/use-toast';
import { api } from '../../../lib/api-client';
import { refetchChangedBy } from '../../../lib/live-invalidation';
import { queryKeys } from '../../../lib/query-keys';

/** Every stored error report, most recently seen first. */
export function useErrorLogs() {
  return useQuery({
    queryKey: queryKeys.errorLogs,
    queryFn: ({ signal }) => api(errorReportRoutes.list, undefined, { signal }),
    refetchOnMount: 'always',
  });
}

export function useUnresolvedErrors() {
  return useQuery({
    queryKey: queryKeys.unresolvedErrors,
    queryFn: ({ signal }) => api(errorReportRoutes.unresolved, undefined, { signal }),
    refetchOnMount: 'always',
  });
}

/** Marks one entry resolved; both lists refresh (they share the error logs' root key). */
export function useResolveError(errorId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(errorReportRoutes.resolve, { params: { id: errorId } }),
    onSuccess: async () => {
      toast({ title: 'Error Resolved', description: 'Error has been marked as resolved' });
      await refetchChangedBy(queryClient, { type: 'error-logs.changed' });
    },
    onError: () => {
      toast({ title: 'Error', description: 'Failed to mark error as resolved', variant: 'destructive' });
    },
  });
}
