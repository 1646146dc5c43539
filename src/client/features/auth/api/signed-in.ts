import { useQueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '../../../../common/contract/user';
import { ApiRequestError } from '../../../lib/api-client';
import { forgetSignedInData } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';

/**
 * A successful login, PIN setup or quick login stores the user as current, so the
 * auth gate renders the app at once without asking the server again. Whatever an earlier member
 * left in the cache (a session that expired in this tab) goes first. The sign-in itself is in the
 * activity log already: the server writes it.
 */
export function useStoreSignedInUser(): (user: CurrentUser) => void {
  const queryClient = useQueryClient();
  return (user) => {
    forgetSignedInData(queryClient);
    queryClient.setQueryData(queryKeys.user, user);
  };
}

export function hasStatus(error: unknown, status: number): boolean {
  return error instanceof ApiRequestError && error.status === status;
}
