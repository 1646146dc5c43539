import { useMutation } from '@tanstack/react-query';
import type { SetupPinRequest } from '../../../../shared/contract/auth';
import { AUTH_PATHS } from './auth-endpoints';
import type { CurrentUser } from '../../../../shared/contract/user';
import { toast } from '../../../components/ui/use-toast';
import { apiJson, describeError } from '../../../lib/api-client';
import { hasStatus, useStoreSignedInUser } from './signed-in';

export function setupPin(payload: SetupPinRequest): Promise<CurrentUser> {
  return apiJson<CurrentUser>('POST', AUTH_PATHS.setupPin, payload);
}

export interface SetupPinHandlers {
  /** 409: the member already has a PIN, so the way forward is the standard login with it. */
  onPinAlreadySet: () => void;
  onFailure: () => void;
}

export function useSetupPin({ onPinAlreadySet, onFailure }: SetupPinHandlers) {
  const storeUser = useStoreSignedInUser();
  return useMutation({
    mutationFn: setupPin,
    onSuccess: (user) => {
      storeUser(user);
      toast({ title: 'PIN Setup Complete!', description: `Welcome, ${user.name}! Your PIN has been set up successfully.` });
    },
    onError: (error) => {
      toast({ title: 'PIN Setup Failed', description: describeError(error, 'PIN setup failed'), variant: 'destructive' });
      if (hasStatus(error, 409)) onPinAlreadySet();
      else onFailure();
    },
  });
}
