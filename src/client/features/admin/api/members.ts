import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminRoutes } from '../../../../common/api/admin';
import type { AddMemberInput, SetRoleInput } from '../../../../common/contract/admin';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError } from '../../../lib/api-client';
import { refetchChangedBy } from '../../../lib/live-invalidation';
import { queryKeys } from '../../../lib/query-keys';
import { useAdminUnlock } from '../admin-unlock';

/** Every member, as the admin sees them; live events keep it current, coming back to the tab refetches. */
export function useAdminMembers() {
  return useQuery({
    queryKey: queryKeys.adminMembers,
    queryFn: ({ signal }) => api(adminRoutes.members, undefined, { signal }),
    refetchOnMount: 'always',
  });
}

/** A wrong admin password locks the actions again (the unlock says so); any other refusal (a name taken) carries the server's reason, a network failure the fallback. */
function useFailureToast() {
  const { passwordRefused } = useAdminUnlock();
  return (fallback: string) => (error: unknown) => {
    if (passwordRefused(error)) return;
    toast({ title: 'Error', description: describeError(error, fallback), variant: 'destructive' });
  };
}

/** Adds a member; the answer carries their one-time enrollment link, which the caller shows once. */
export function useAddMember() {
  const queryClient = useQueryClient();
  const failureToast = useFailureToast();
  return useMutation({
    mutationFn: (input: AddMemberInput) => api(adminRoutes.addMember, { body: input }),
    onSuccess: async (result) => {
      toast({ title: 'Success', description: result.message });
      await refetchChangedBy(queryClient, { type: 'members.changed' });
    },
    onError: failureToast('Failed to add team member'),
  });
}

/** The per-member actions, bound to one member, so each row has its own pending state. */
export function useMemberActions(memberId: number) {
  const queryClient = useQueryClient();
  const failureToast = useFailureToast();
  const params = { id: memberId };
  const done = async ({ message }: { message: string }) => {
    toast({ title: 'Success', description: message });
    await refetchChangedBy(queryClient, { type: 'members.changed' });
  };
  const enrollmentLink = useMutation({
    mutationFn: (adminPassword: string) => api(adminRoutes.enrollmentLink, { params, body: { adminPassword } }),
    onSuccess: done,
    onError: failureToast('Failed to create an enrollment link'),
  });
  const unlock = useMutation({
    mutationFn: (adminPassword: string) => api(adminRoutes.unlock, { params, body: { adminPassword } }),
    onSuccess: done,
    onError: failureToast('Failed to unlock the member'),
  });
  const setRole = useMutation({
    mutationFn: (input: SetRoleInput) => api(adminRoutes.setRole, { params, body: input }),
    onSuccess: done,
    onError: failureToast('Failed to change the role'),
  });
  const setActive = useMutation({
    mutationFn: (input: { adminPassword: string; active: boolean }) => api(adminRoutes.setActive, { params, body: input }),
    onSuccess: done,
    onError: failureToast('Failed to change the member'),
  });
  /** Clears the PIN without a request from the member; the answer is the fresh enrollment link to hand over. */
  const resetPin = useMutation({
    mutationFn: (adminPassword: string) => api(adminRoutes.resetPin, { params, body: { adminPassword } }),
    onSuccess: async (result) => {
      toast({ title: 'PIN Reset Successful', description: result.message });
      // Resolves the member's pending requests too: both lists follow this event.
      await refetchChangedBy(queryClient, { type: 'pin-resets.changed' });
    },
    onError: failureToast('Failed to reset the PIN'),
  });
  return { enrollmentLink, unlock, setRole, setActive, resetPin };
}
