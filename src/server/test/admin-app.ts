import { afterAll, beforeAll } from 'vitest';
import type { App } from '../http/types.js';
import { signInAs, type SessionCookies } from './sign-in.js';
import { createTestApp, type TestApp } from './test-app.js';

export interface AdminAndMember {
  app: App;
  /** Avery Admin, the configured admin, signed in. */
  admin: SessionCookies;
  /** Morgan Member, signed in. */
  member: SessionCookies;
}

/**
 * One app for the describe block it is called in, with the admin and a member signed in (and
 * listening on a port when the tests open event streams). Read the fields inside tests: they are
 * set in beforeAll.
 */
export function useAdminAndMember(options: { listen?: boolean } = {}): AdminAndMember {
  let testApp: TestApp | undefined;
  const fixture = {} as AdminAndMember;
  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 1_000 });
    fixture.app = testApp.app;
    if (options.listen === true) await fixture.app.listen({ port: 0, host: '127.0.0.1' });
    fixture.admin = await signInAs(fixture.app, 'Avery Admin');
    fixture.member = await signInAs(fixture.app, 'Morgan Member');
  });
  afterAll(async () => {
    await testApp?.close();
  });
  return fixture;
}
