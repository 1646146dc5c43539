import { describe, expect, test, vi } from 'vitest';
import { authRoutes } from '../../../../common/api/auth';
import type { CurrentUser } from '../../../../common/contract/user';
import { loggedActivities, runMutation } from '../../../test/activity';
import { mockFetch } from '../../../test/mock-fetch';
import { useLogin } from './login';
import { useQuickLogin } from './quick-login';
import { useSetupPin } from './setup-pin';

const ADA: CurrentUser = { name: 'Ada Lovelace', firstName: 'Ada', lastName: 'Lovelace', email: null, profileImageUrl: null, role: 'member', permissions: { canAdminister: false, canDecide: false } };
const handlers = () => ({ onPinSetupRequired: vi.fn(), onFailure: vi.fn(), onPinAlreadySet: vi.fn() });

describe('sign-in activity', () => {
  // The server logs each sign-in as it answers it; the page posts no entry for it.
  test('sign-in with password, quick login and PIN setup post no activity entry', async () => {
    const api = mockFetch().on(authRoutes.login, { body: ADA }).on(authRoutes.quickLogin, { body: ADA }).on(authRoutes.setupPin, { body: ADA });
    const on = handlers();
    await runMutation(
      () => useLogin(on),
      (mutation) => {
        mutation.mutate({ password: 'team-pass', name: ADA.name, pin: '4821' });
      },
    );
    await runMutation(
      () => useQuickLogin(on),
      (mutation) => {
        mutation.mutate({ name: ADA.name, pin: '4821' });
      },
    );
    await runMutation(
      () => useSetupPin(on),
      (mutation) => {
        mutation.mutate({ password: 'team-pass', name: ADA.name, pin: '4821' });
      },
    );
    expect(api.requests(authRoutes.setupPin)).toHaveLength(1);
    expect(loggedActivities(api)).toEqual([]);
  });

  test('a failed sign-in, or one that only asks for PIN setup, logs nothing', async () => {
    const api = mockFetch().on(authRoutes.login, { status: 401, error: { code: 'INVALID_CREDENTIALS', message: 'Invalid name, password or PIN' } });
    const on = handlers();
    await runMutation(
      () => useLogin(on),
      (mutation) => {
        mutation.mutate({ password: 'team-pass', name: ADA.name, pin: '4821' });
      },
    );
    api.on(authRoutes.login, { status: 202, body: { pinSetupRequired: true, name: ADA.name, message: 'Create your PIN' } });
    await runMutation(
      () => useLogin(on),
      (mutation) => {
        mutation.mutate({ password: 'team-pass', name: ADA.name, pin: '' });
      },
    );
    expect(on.onFailure).toHaveBeenCalledTimes(1);
    expect(on.onPinSetupRequired).toHaveBeenCalledTimes(1);
    expect(loggedActivities(api)).toEqual([]);
  });
});
