import { useQueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '../../../../shared/contract/user';
import { ApiRequestError } from '../../../lib/api-client';
import { currentUserQueryKey, forgetSignedInData } from '../../../lib/auth';

/**
 * Spec section 4: a successful login, PIN setup or quick login stores the user as current, so the
 * auth gate renders the app at once without asking the server again. Whatever an earlier member
 * left in the cache (a session that expired in this tab) goes first.
 */
export function useStoreSignedInUser(): (user: CurrentUser) => void {
  const queryClient = useQueryClient();
  return (user) => {
    forgetSignedInData(queryClient);
    queryClient.setQueryData(currentUserQueryKey, user);
  };
}

/** True when the call failed with exactly this server message (the spec's mode switches key on it). */
export function hasServerMessage(error: unknown, message: string): boolean {
  return error instanceof ApiRequestError && error.serverMessage === message;
}

export function hasStatus(error: unknown, status: number): boolean {
  return error instanceof ApiRequestError && error.status === status;
}
