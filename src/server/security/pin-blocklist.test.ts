import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../common/contract/common.js';
import { nameKey } from '../../common/names.js';
import { GUESSABLE_PINS, guessablePinReason, PIN_REASONS } from '../../common/pin-rules.js';
import type { App } from '../http/types.js';
import { findMemberByKey } from '../modules/members/repo.js';
import { addMember } from '../modules/members/service.js';
import { openEnrollmentLink } from '../test/sign-in.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../test/test-app.js';

/** Guessable PINs (repeats, runs, years, pairs, keypad lines, the most used ones) are refused when a PIN is created, each with its reason. */
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

  it('refuses every listed PIN with 400 and the reason of its rule, and stores nothing', async () => {
    await addMember(app.database.db, 'Gus Guessable');
    const { cookies } = await openEnrollmentLink(app, 'Gus Guessable');
    expect(GUESSABLE_PINS.size).toBeGreaterThanOrEqual(300);
    for (const pin of ['0000', '1111', '1234', '4321', '9876', '1212', '2580', '1357', '2468', '1984', '2020', '0101', '1221', '4545', '7410', '8520', ...GUESSABLE_PINS]) {
      const response = await setupPin('Gus Guessable', pin, cookies);
      expect(response.statusCode, pin).toBe(400);
      const body = apiErrorSchema.parse(response.json());
      expect(body.code).toBe('VALIDATION_FAILED');
      const reason = guessablePinReason(pin);
      expect(reason, pin).toBeDefined();
      expect(body.message, pin).toContain(reason);
    }
    expect((await findMemberByKey(app.database.db, nameKey('Gus Guessable')))?.pin_hash).toBeNull();
    // The link was not used up by the refusals.
    expect((await setupPin('Gus Guessable', '7139', cookies)).statusCode).toBe(200);
  });

  it('says why: a year, a keypad line, a repeated pair', async () => {
    await addMember(app.database.db, 'Rhea Reasons');
    const { cookies } = await openEnrollmentLink(app, 'Rhea Reasons');
    const reasonOf = async (pin: string) => apiErrorSchema.parse((await setupPin('Rhea Reasons', pin, cookies)).json()).message;
    expect(await reasonOf('1987')).toContain(PIN_REASONS.year);
    expect(await reasonOf('7410')).toContain(PIN_REASONS.keypadLine);
    expect(await reasonOf('4545')).toContain(PIN_REASONS.repeatedPair);
  });
});
