import { useQuery } from '@tanstack/react-query';
import type { CheckSessionResponse } from '../../../../shared/contract/auth';
import { AUTH_PATHS } from './auth-endpoints';
import { getQueryFn } from '../../../lib/api-client';

export const checkSessionQueryKey = [AUTH_PATHS.checkSession] as const;

/**
 * Whether this browser remembers a member for PIN-only quick login. Asked afresh every time the
 * sign-in screen opens (gcTime 0): after a logout the device is still remembered, after 'Use
 * Different Account' it is not.
 */
export function useCheckSession() {
  return useQuery({
    queryKey: checkSessionQueryKey,
    queryFn: getQueryFn<CheckSessionResponse>({ on401: 'throw' }),
    gcTime: 0,
  });
}
