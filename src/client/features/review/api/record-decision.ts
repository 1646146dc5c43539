import { useMutation, useQueryClient } from '@tanstack/react-query';
import { decisionRoutes } from '../../../../common/api/decisions';
import type { RecordDecisionInput } from '../../../../common/contract/decisions';
import { toast } from '../../../components/ui/use-toast';
import { api } from '../../../lib/api-client';
import { refetchChangedBy } from '../../../lib/live-invalidation';

/** An admin records a decision on a component (with the admin password); it supersedes the last one. */
export function useRecordDecision(componentId: string, options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RecordDecisionInput) => api(decisionRoutes.record, { params: { componentId }, body: input }),
    onSuccess: async () => {
      await refetchChangedBy(queryClient, { type: 'decision.recorded', componentId });
      toast({ title: 'Decision recorded', description: 'It is the component’s current decision; earlier ones stay in its history.' });
      options.onSuccess?.();
    },
  });
}
