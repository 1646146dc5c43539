import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client';
import { queryKeys } from './query-keys';
import { wasSignedIn } from './signed-in-hint';

describe('the signed-in hint', () => {
  afterEach(() => {
    localStorage.clear();
  });

  it('follows every change of the current user: signed in, then out', () => {
    const queryClient = createQueryClient();
    expect(wasSignedIn()).toBe(false);
    queryClient.setQueryData(queryKeys.user, { name: 'Casey Shell', role: 'member' });
    expect(wasSignedIn()).toBe(true);
    queryClient.setQueryData(queryKeys.user, null);
    expect(wasSignedIn()).toBe(false);
  });

  it('is left alone by other answers', () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(queryKeys.user, { name: 'Casey Shell', role: 'member' });
    queryClient.setQueryData(queryKeys.suggestions, null);
    expect(wasSignedIn()).toBe(true);
  });

  it('is no hint when storage is turned off', () => {
    const original = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get: () => {
        throw new Error('storage is off');
      },
    });
    try {
      const queryClient = createQueryClient();
      expect(() => queryClient.setQueryData(queryKeys.user, { name: 'Casey Shell', role: 'member' })).not.toThrow();
      expect(wasSignedIn()).toBe(false);
    } finally {
      if (original !== undefined) Object.defineProperty(globalThis, 'localStorage', original);
    }
  });
});
