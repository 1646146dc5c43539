import { useQueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '../../../../common/contract/user';
import { logActivity } from '../../../lib/activity-log';
import { ApiRequestError } from '../../../lib/api-client';
import { forgetSignedInData } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';

/** How the member signed in, for the activity log. */
export type SignInMethod = 'password' | 'quick' | 'pin-setup';

/**
 * A successful login, PIN setup or quick login stores the user as current, so the
 * auth gate renders the app at once without asking the server again. Whatever an earlier member
 * left in the cache (a session that expired in this tab) goes first. Every sign-in passes here,
 * so here it is logged (the new session's cookie is already set).
 */
export function useStoreSignedInUser(): (user: CurrentUser, method: SignInMethod) => void {
  const queryClient = useQueryClient();
  return (user, method) => {
    forgetSignedInData(queryClient);
    queryClient.setQueryData(queryKeys.user, user);
    void logActivity('login', { method });
  };
}

export function hasStatus(error: unknown, status: number): boolean {
  return error instanceof ApiRequestError && error.status === status;
}
