import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authRoutes } from '../../../../common/api/auth';
import { ERROR_CODES } from '../../../../common/api/error-codes';
import type { QuickLoginRequest } from '../../../../common/contract/auth';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError, hasErrorCode } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useStoreSignedInUser } from './signed-in';

export interface QuickLoginHandlers {
  /** 'PIN not set…' opens PIN setup for the remembered name. */
  onPinSetupRequired: (name: string) => void;
  onFailure: () => void;
}

export function useQuickLogin({ onPinSetupRequired, onFailure }: QuickLoginHandlers) {
  const queryClient = useQueryClient();
  const storeUser = useStoreSignedInUser();
  return useMutation({
    mutationFn: (payload: QuickLoginRequest) => api(authRoutes.quickLogin, { body: payload }),
    onSuccess: (user) => {
      storeUser(user);
      toast({ title: 'Welcome back!' });
    },
    onError: (error, payload) => {
      if (hasErrorCode(error, ERROR_CODES.pinNotSet)) {
        onPinSetupRequired(payload.name);
        return;
      }
      toast({ title: 'Login failed', description: describeError(error, 'Quick login failed'), variant: 'destructive' });
      // Five wrong PINs make the server forget this device: ask again whether quick login still applies.
      void queryClient.invalidateQueries({ queryKey: queryKeys.checkSession });
      onFailure();
    },
  });
}
