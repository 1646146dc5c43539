import { useMutation } from '@tanstack/react-query';
import { authRoutes } from '../../../../common/api/auth';
import { ERROR_CODES } from '../../../../common/api/error-codes';
import type { SetupPinRequest } from '../../../../common/contract/auth';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError, hasErrorCode } from '../../../lib/api-client';
import { useStoreSignedInUser } from './signed-in';

export interface SetupPinHandlers {
  /** The member already has a PIN, so the way forward is the standard login with it. */
  onPinAlreadySet: () => void;
  onFailure: () => void;
}

export function useSetupPin({ onPinAlreadySet, onFailure }: SetupPinHandlers) {
  const storeUser = useStoreSignedInUser();
  return useMutation({
    mutationFn: (payload: SetupPinRequest) => api(authRoutes.setupPin, { body: payload }),
    onSuccess: (user) => {
      storeUser(user);
      toast({ title: 'PIN Setup Complete!', description: `Welcome, ${user.name}! Your PIN has been set up successfully.` });
    },
    onError: (error) => {
      toast({ title: 'PIN Setup Failed', description: describeError(error, 'PIN setup failed'), variant: 'destructive' });
      if (hasErrorCode(error, ERROR_CODES.pinAlreadySet)) onPinAlreadySet();
      else onFailure();
    },
  });
}
