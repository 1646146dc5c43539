import { useQuery } from '@tanstack/react-query';
import { authRoutes } from '../../../../shared/api/auth';
import { api } from '../../../lib/api-client';

/**
 * The admin's name, for a member who opened the panel: a member call, not an admin one. Keyed by
 * its path, as the current user is; src/client/lib/query-keys.ts has no key for it yet.
 */
export function useAdminContact() {
  return useQuery({
    queryKey: [authRoutes.adminContact.path],
    queryFn: ({ signal }) => api(authRoutes.adminContact, undefined, { signal }),
  });
}
