import { useQuery } from '@tanstack/react-query';
import { authRoutes } from '../../../../common/api/auth';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The admin's name, for a member who opened the panel: a member call, not an admin one. */
export function useAdminContact() {
  return useQuery({
    queryKey: queryKeys.adminContact,
    queryFn: ({ signal }) => api(authRoutes.adminContact, undefined, { signal }),
  });
}
