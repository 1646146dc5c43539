import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../common/api';
import type { AssignSuggestionInput, SetSuggestionStatusInput } from '../../../../common/contract/ai';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError } from '../../../lib/api-client';
import { refetchChangedBy } from '../../../lib/live-invalidation';
import { queryKeys } from '../../../lib/query-keys';

type OutcomeChange = { kind: 'status'; input: SetSuggestionStatusInput } | { kind: 'assign'; input: AssignSuggestionInput } | { kind: 'done' };

const DONE_TOASTS: Readonly<Record<OutcomeChange['kind'], { title: string; description: string }>> = {
  status: { title: 'Status changed', description: 'The team sees the new status.' },
  assign: { title: 'Owner assigned', description: 'The action is on their list.' },
  done: { title: 'Action done', description: 'It is marked done for the team.' },
};

/**
 * A suggestion's status (admin), its action's owner and due day (admin), or the action done (its
 * owner or an admin). Dialogs show a refusal themselves (`onError`); a button's refusal is a toast.
 */
export function useSuggestionOutcome(suggestionId: number, options: { onSuccess?: () => void; toastErrors?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: OutcomeChange) => {
      const params = { id: suggestionId };
      if (change.kind === 'status') return api(routes.suggestions.setStatus, { params, body: change.input });
      if (change.kind === 'assign') return api(routes.suggestions.assign, { params, body: change.input });
      return api(routes.suggestions.complete, { params });
    },
    onSuccess: async (_suggestion, change) => {
      await refetchChangedBy(queryClient, { type: 'suggestion.outcome.changed' });
      toast(DONE_TOASTS[change.kind]);
      options.onSuccess?.();
    },
    onError: (error) => {
      if (options.toastErrors === true) toast({ title: 'Could not change the action', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}

/** The active members an admin can make an action's owner (the admin list, asked for when the dialog opens). */
export function useAssignableMembers(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.assignableMembers,
    queryFn: async ({ signal }) => (await api(routes.admin.members, undefined, { signal })).filter((member) => member.active && !member.isQa).map((member) => member.name),
    enabled,
  });
}
