import { useQuery } from '@tanstack/react-query';
import { authRoutes } from '../../../../common/api/auth';
import type { EnrollmentStatus } from '../../../../common/contract/auth';
import { ApiRequestError, api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The server's answer, or: this address is over the sign-in limit, and may ask again after a wait. */
export type EnrollmentCheck = EnrollmentStatus | { state: 'rate-limited'; retryAfterSeconds: number };

/** Without a Retry-After, the limit's window (a minute) is the longest wait. */
const DEFAULT_WAIT_SECONDS = 60;

/**
 * Whether this browser opened an enrollment link, and for whom: only that member may create a PIN
 * here. Asked afresh every time the sign-in screen opens (gcTime 0); the server clears the cookie
 * once the PIN is created. Over the sign-in limit the link stays in its cookie: the screen says
 * when to retry and asks again itself once Retry-After has passed.
 */
export function useEnrollmentStatus() {
  return useQuery({
    queryKey: queryKeys.enrollment,
    queryFn: async ({ signal }): Promise<EnrollmentCheck> => {
      try {
        return await api(authRoutes.enrollment, undefined, { signal });
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 429) {
          return { state: 'rate-limited', retryAfterSeconds: Math.max(1, error.retryAfterSeconds ?? DEFAULT_WAIT_SECONDS) };
        }
        throw error;
      }
    },
    refetchInterval: (query) => (query.state.data?.state === 'rate-limited' ? query.state.data.retryAfterSeconds * 1000 : false),
    gcTime: 0,
  });
}
