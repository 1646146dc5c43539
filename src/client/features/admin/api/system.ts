import { useQuery } from '@tanstack/react-query';
import { adminRoutes } from '../../../../common/api/admin';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** What the server runs on and where its secrets come from (never their values). */
export function useSystemStatus() {
  return useQuery({
    queryKey: queryKeys.system,
    queryFn: ({ signal }) => api(adminRoutes.system, undefined, { signal }),
  });
}
