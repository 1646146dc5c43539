import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QuickLoginRequest } from '../../../../shared/contract/auth';
import { AUTH_PATHS, PIN_SETUP_MESSAGES } from './auth-endpoints';
import type { CurrentUser } from '../../../../shared/contract/user';
import { toast } from '../../../components/ui/use-toast';
import { apiJson, describeError } from '../../../lib/api-client';
import { checkSessionQueryKey } from './check-session';
import { hasServerMessage, useStoreSignedInUser } from './signed-in';

export function quickLogin(payload: QuickLoginRequest): Promise<CurrentUser> {
  return apiJson<CurrentUser>('POST', AUTH_PATHS.quickLogin, payload);
}

export interface QuickLoginHandlers {
  /** Spec section 5: 'PIN not set…' opens PIN setup for the remembered name. */
  onPinSetupRequired: (name: string) => void;
  onFailure: () => void;
}

export function useQuickLogin({ onPinSetupRequired, onFailure }: QuickLoginHandlers) {
  const queryClient = useQueryClient();
  const storeUser = useStoreSignedInUser();
  return useMutation({
    mutationFn: quickLogin,
    onSuccess: (user) => {
      storeUser(user);
      toast({ title: 'Welcome back!' });
    },
    onError: (error, payload) => {
      if (hasServerMessage(error, PIN_SETUP_MESSAGES.pinNotSet)) {
        onPinSetupRequired(payload.name);
        return;
      }
      toast({ title: 'Login failed', description: describeError(error, 'Quick login failed'), variant: 'destructive' });
      // Five wrong PINs make the server forget this device: ask again whether quick login still applies.
      void queryClient.invalidateQueries({ queryKey: checkSessionQueryKey });
      onFailure();
    },
  });
}
