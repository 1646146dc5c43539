import { useQuery } from '@tanstack/react-query';
import type { EnrollmentStatus } from '../../../../shared/contract/auth';
import { AUTH_PATHS } from './auth-endpoints';
import { getQueryFn } from '../../../lib/api-client';

export const enrollmentStatusQueryKey = [AUTH_PATHS.enrollment] as const;

/**
 * Whether this browser opened an enrollment link, and for whom: only that member may create a PIN
 * here. Asked afresh every time the sign-in screen opens (gcTime 0); the server clears the cookie
 * once the PIN is created.
 */
export function useEnrollmentStatus() {
  return useQuery({
    queryKey: enrollmentStatusQueryKey,
    queryFn: getQueryFn<EnrollmentStatus>({ on401: 'throw' }),
    gcTime: 0,
  });
}
