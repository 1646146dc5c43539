import { useMutation } from '@tanstack/react-query';
import { authRoutes } from '../../../../common/api/auth';
import { ERROR_CODES } from '../../../../common/api/error-codes';
import type { LoginRequest } from '../../../../common/contract/auth';
import type { CurrentUser } from '../../../../common/contract/user';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError, hasErrorCode } from '../../../lib/api-client';
import { useStoreSignedInUser } from './signed-in';

type LoginOutcome = { kind: 'signed-in'; user: CurrentUser } | { kind: 'pin-setup-required'; name: string; message: string };

/** The member, or (202) word that the member has no PIN yet. */
async function login(payload: LoginRequest): Promise<LoginOutcome> {
  const answer = await api(authRoutes.login, { body: payload });
  if ('pinSetupRequired' in answer) return { kind: 'pin-setup-required', name: answer.name, message: answer.message };
  return { kind: 'signed-in', user: answer };
}

export interface LoginHandlers {
  /** A 202, or 'PIN is required', opens PIN setup for that name. */
  onPinSetupRequired: (name: string, reason: 'no-pin-yet' | 'pin-required', message?: string) => void;
  onFailure: () => void;
}

export function useLogin({ onPinSetupRequired, onFailure }: LoginHandlers) {
  const storeUser = useStoreSignedInUser();
  return useMutation({
    mutationFn: login,
    onSuccess: (outcome) => {
      if (outcome.kind === 'pin-setup-required') {
        onPinSetupRequired(outcome.name, 'no-pin-yet', outcome.message);
        return;
      }
      storeUser(outcome.user);
      toast({ title: 'Welcome!', description: `You're now logged in as ${outcome.user.name}` });
    },
    onError: (error, payload) => {
      if (hasErrorCode(error, ERROR_CODES.pinRequired)) {
        onPinSetupRequired(payload.name, 'pin-required');
        return;
      }
      toast({ title: 'Login failed', description: describeError(error, 'Login failed'), variant: 'destructive' });
      onFailure();
    },
  });
}
