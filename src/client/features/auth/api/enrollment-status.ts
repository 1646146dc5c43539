import { useQuery } from '@tanstack/react-query';
import { authRoutes } from '../../../../common/api/auth';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * Whether this browser opened an enrollment link, and for whom: only that member may create a PIN
 * here. Asked afresh every time the sign-in screen opens (gcTime 0); the server clears the cookie
 * once the PIN is created.
 */
export function useEnrollmentStatus() {
  return useQuery({
    queryKey: queryKeys.enrollment,
    queryFn: ({ signal }) => api(authRoutes.enrollment, undefined, { signal }),
    gcTime: 0,
  });
}
