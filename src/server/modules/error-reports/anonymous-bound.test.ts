import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportErrorContract } from '../../../common/contract/error-reports.js';
import type { App } from '../../http/types.js';
import { signInAs, type SessionCookies } from '../../test/sign-in.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { anonymousRowsMax } from './service.js';

/** Signed-out reports have a bounded share of the error log and never push out a member's open report. */

const MAX_ROWS = 100;

describe('error log bounds for signed-out reports', () => {
  let testApp: TestApp;
  let app: App;
  let member: SessionCookies;
  beforeAll(async () => {
    testApp = await createTestApp({ errorLogs: { maxRows: MAX_ROWS, resolvedRetentionMs: 30 * 24 * 3_600_000 } });
    app = testApp.app;
    member = await signInAs(app, 'Morgan Member');
  });
  afterAll(async () => {
    await testApp.close();
  });

  // Each report from an address of its own: the per-address limit is not what this is about.
  let nextAddress = 0;
  const report = async (message: string, cookies?: SessionCookies) => {
    nextAddress += 1;
    const response = await app.inject({
      method: 'POST',
      url: reportErrorContract.path,
      remoteAddress: `10.9.${(nextAddress >> 8) & 255}.${nextAddress & 255}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ source: 'frontend', errorType: 'javascript_error', message, severity: 'high' }),
      ...(cookies === undefined ? {} : { cookies }),
    });
    expect(response.statusCode, response.body).toBe(201);
  };
  const rows = () => app.database.db.selectFrom('error_logs').select(['message', 'member_name', 'resolved']).execute();

  it('keeps every open report of a member through a flood of signed-out reports, and at most a tenth of the table signed out', async () => {
    const memberMessages = Array.from({ length: 40 }, (_, index) => `Member error ${index}`);
    for (const message of memberMessages) await report(message, member);
    // The same text signed out is a report of its own: it does not take over the member's.
    await report('Member error 0');
    for (let index = 0; index < 3 * MAX_ROWS; index += 1) await report(`Signed-out error ${index}`);

    const stored = await rows();
    const members = stored.filter((row) => row.member_name === 'Morgan Member' && row.resolved === 0).map((row) => row.message);
    expect(members.sort()).toEqual([...memberMessages].sort());
    const anonymous = stored.filter((row) => row.member_name === null);
    expect(anonymous.length).toBeGreaterThan(0);
    expect(anonymous.length).toBeLessThanOrEqual(anonymousRowsMax(MAX_ROWS));
    expect(anonymousRowsMax(MAX_ROWS)).toBe(MAX_ROWS / 10);
    expect(stored.length).toBeLessThanOrEqual(MAX_ROWS);
    // The newest signed-out reports are the ones kept.
    expect(anonymous.map((row) => row.message)).toContain(`Signed-out error ${3 * MAX_ROWS - 1}`);
  });
});
