import { useMutation } from '@tanstack/react-query';
import type { LoginRequest, PinSetupRequired } from '../../../../shared/contract/auth';
import { AUTH_PATHS, PIN_SETUP_MESSAGES } from './auth-endpoints';
import type { CurrentUser } from '../../../../shared/contract/user';
import { toast } from '../../../components/ui/use-toast';
import { apiRequest, describeError } from '../../../lib/api-client';
import { hasServerMessage, useStoreSignedInUser } from './signed-in';

export type LoginOutcome = { kind: 'signed-in'; user: CurrentUser } | { kind: 'pin-setup-required'; name: string; message: string };

/** POST /api/login: 200 is the user, 202 means the member has no PIN yet (spec section 7). */
export async function login(payload: LoginRequest): Promise<LoginOutcome> {
  const response = await apiRequest('POST', AUTH_PATHS.login, payload);
  if (response.status === 202) {
    const body = (await response.json()) as PinSetupRequired;
    return { kind: 'pin-setup-required', name: body.name, message: body.message };
  }
  return { kind: 'signed-in', user: (await response.json()) as CurrentUser };
}

export interface LoginHandlers {
  /** Spec section 4: a 202, or 'PIN is required', opens PIN setup for that name. */
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
      if (hasServerMessage(error, PIN_SETUP_MESSAGES.pinRequired)) {
        onPinSetupRequired(payload.name, 'pin-required');
        return;
      }
      toast({ title: 'Login failed', description: describeError(error, 'Login failed'), variant: 'destructive' });
      onFailure();
    },
  });
}
