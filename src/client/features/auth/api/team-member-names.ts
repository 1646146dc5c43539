import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { authRoutes } from '../../../../common/api/auth';
import { TEAM_PASSWORD_HEADER } from '../../../../common/api/auth';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { hasStatus } from './signed-in';

export type TeamNamesStatus = 'no-password' | 'loading' | 'ready' | 'wrong-password' | 'failed';

export interface TeamNames {
  status: TeamNamesStatus;
  names: readonly string[];
  /** Asks for the names with this team password, once per distinct password. */
  request: (password: string) => void;
}

/**
 * A signed-out screen sees member names only by proving the team password in
 * a header. The server counts each such call as a sign-in attempt (per-IP limit), so the names are
 * asked for only when the form calls `request` (name field focused, password field left), never
 * per keystroke, and each password is tried at most once while the screen is open. The password
 * sits in the query key, so the answers are dropped when the screen closes.
 */
export function useTeamMemberNames(): TeamNames {
  const queryClient = useQueryClient();
  const [proof, setProof] = useState('');
  const query = useQuery({
    queryKey: queryKeys.teamNames(proof),
    queryFn: ({ signal }) => api(authRoutes.teamMemberNames, undefined, { headers: { [TEAM_PASSWORD_HEADER]: proof }, signal }),
    enabled: proof !== '',
  });
  useEffect(
    () => () => {
      queryClient.removeQueries({ queryKey: queryKeys.teamNamesRoot });
    },
    [queryClient],
  );
  const request = useCallback((password: string) => {
    if (password !== '') setProof(password);
  }, []);

  let status: TeamNamesStatus;
  if (proof === '') status = 'no-password';
  else if (query.isPending) status = 'loading';
  else if (query.isError) status = hasStatus(query.error, 401) ? 'wrong-password' : 'failed';
  else status = 'ready';
  return { status, names: query.data ?? [], request };
}
