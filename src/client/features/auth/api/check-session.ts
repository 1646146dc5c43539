import { useQuery } from '@tanstack/react-query';
import { authRoutes } from '../../../../common/api/auth';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * Whether this browser remembers a member for PIN-only quick login. Asked afresh every time the
 * sign-in screen opens (gcTime 0): after a logout the device is still remembered, after 'Use
 * Different Account' it is not.
 */
export function useCheckSession() {
  return useQuery({
    queryKey: queryKeys.checkSession,
    queryFn: ({ signal }) => api(authRoutes.checkSession, undefined, { signal }),
    gcTime: 0,
  });
}
