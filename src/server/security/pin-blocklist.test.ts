import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../common/contract/common.js';
import { nameKey } from '../../common/names.js';
import { GUESSABLE_PINS, GUESSABLE_PIN_MESSAGE } from '../../common/pin-rules.js';
import type { App } from '../http/types.js';
import { findMemberByKey } from '../modules/members/repo.js';
import { addMember } from '../modules/members/service.js';
import { openEnrollmentLink } from '../test/sign-in.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../test/test-app.js';

/** Trivial PINs (repeats, runs, the most used ones) are refused when a PIN is created. */
describe('guessable PINs', () => {
  let testApp: TestApp;
  let app: App;
  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 10_000 });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
  });

  const setupPin = (name: string, pin: string, cookies: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/api/setup-pin',
      headers: { 'content-type': 'application/json' },
      cookies,
      payload: JSON.stringify({ password: TEST_SECRETS.teamPassword, name, pin }),
    });

  it('refuses every listed PIN with 400 and a message saying why, and stores nothing', async () => {
    await addMember(app.database.db, 'Gus Guessable');
    const { cookies } = await openEnrollmentLink(app, 'Gus Guessable');
    expect(GUESSABLE_PINS.size).toBeGreaterThanOrEqual(20);
    for (const pin of ['0000', '1111', '1234', '4321', '9876', '1212', '2580', ...GUESSABLE_PINS]) {
      const response = await setupPin('Gus Guessable', pin, cookies);
      expect(response.statusCode, pin).toBe(400);
      const body = apiErrorSchema.parse(response.json());
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.message).toContain(GUESSABLE_PIN_MESSAGE);
    }
    expect((await findMemberByKey(app.database.db, nameKey('Gus Guessable')))?.pin_hash).toBeNull();
    // The link was not used up by the refusals.
    expect((await setupPin('Gus Guessable', '7139', cookies)).statusCode).toBe(200);
  });
});
