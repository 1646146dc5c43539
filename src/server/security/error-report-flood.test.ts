import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../http/types.js';
import { ErrorReports } from '../modules/error-reports/service.js';
import { LocalEventBus } from '../event-bus/event-bus.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * Unauthenticated error reports must not grow storage without bound: identical reports share one
 * row with a count and a last-seen time, the number of rows is capped, and resolved rows expire.
 */

const REPORT = {
  source: 'frontend',
  errorType: 'javascript_error',
  message: 'TypeError: x is undefined',
  stack: 'at App (app.tsx:1:1)',
  url: 'http://localhost:5000/',
  severity: 'medium',
} as const;

const MAX_ROWS = 100;

describe('error report flood', () => {
  let testApp: TestApp;
  let app: App;
  let nextAddress = 0;
  beforeAll(async () => {
    testApp = await createTestApp({ errorLogs: { maxRows: MAX_ROWS, resolvedRetentionMs: 30 * 24 * 3_600_000 } });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
  });

  // Every report from an address of its own: the per-address limit is tested elsewhere.
  const report = (body: Record<string, string>) => {
    nextAddress += 1;
    return app.inject({
      method: 'POST',
      url: '/api/errors/log',
      headers: { 'content-type': 'application/json' },
      remoteAddress: `10.9.${nextAddress >> 8}.${nextAddress & 255}`,
      payload: JSON.stringify(body),
    });
  };
  const rows = () => app.database.db.selectFrom('error_logs').selectAll().orderBy('id').execute();

  it('stores the same report sent 50 times as one row with a count of 50 and the latest time', async () => {
    const ids = new Set<number>();
    for (let i = 0; i < 50; i += 1) {
      const response = await report({ ...REPORT, url: `http://localhost:5000/page-${i}` });
      expect(response.statusCode, response.body).toBe(201);
      ids.add(response.json<{ id: number }>().id);
    }
    expect(ids.size).toBe(1);
    const stored = await rows();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ occurrences: 50, url: 'http://localhost:5000/page-49', severity: 'medium' });
    expect(stored[0]?.last_seen_at).toBeGreaterThanOrEqual(stored[0]?.created_at ?? Infinity);
  });

  it('keeps the worst severity of a group, and reopens a resolved group that happens again', async () => {
    const first = (await report({ ...REPORT, message: 'worst severity', severity: 'low' })).json<{ id: number }>().id;
    await report({ ...REPORT, message: 'worst severity', severity: 'critical' });
    await report({ ...REPORT, message: 'worst severity', severity: 'medium' });
    await app.database.db.updateTable('error_logs').set({ resolved: 1, resolved_at: Date.now(), resolved_by: 'Avery Admin' }).where('id', '=', first).execute();
    await report({ ...REPORT, message: 'worst severity', severity: 'low' });
    const group = await app.database.db.selectFrom('error_logs').selectAll().where('id', '=', first).executeTakeFirstOrThrow();
    expect(group).toMatchObject({ occurrences: 4, severity: 'critical', resolved: 0, resolved_at: null, resolved_by: null });
  });

  it('groups by type, message and source: another message or type is another row', async () => {
    const before = (await rows()).length;
    await report({ ...REPORT, message: 'one' });
    await report({ ...REPORT, message: 'two' });
    await report({ ...REPORT, message: 'one', errorType: 'api_error' });
    await report({ ...REPORT, message: 'one' });
    expect((await rows()).length).toBe(before + 3);
  });

  it('never holds more rows than the cap, however many distinct reports arrive', async () => {
    for (let i = 0; i < 3 * MAX_ROWS; i += 1) {
      const response = await report({ ...REPORT, message: `distinct failure ${i}` });
      expect(response.statusCode).toBe(201);
      expect((await rows()).length).toBeLessThanOrEqual(MAX_ROWS);
    }
    // The most recent ones are the ones kept.
    const messages = new Set((await rows()).map((row) => row.message));
    expect(messages.has(`distinct failure ${3 * MAX_ROWS - 1}`)).toBe(true);
    expect(messages.has('distinct failure 0')).toBe(false);
  });

  it('deletes resolved rows past their retention, and trims to the cap, in the periodic sweep', async () => {
    const db = app.database.db;
    const now = Date.now();
    const old = (await report({ ...REPORT, message: 'fixed long ago' })).json<{ id: number }>().id;
    const recent = (await report({ ...REPORT, message: 'fixed yesterday' })).json<{ id: number }>().id;
    await db.updateTable('error_logs').set({ resolved: 1, resolved_at: now - 31 * 24 * 3_600_000 }).where('id', '=', old).execute();
    await db.updateTable('error_logs').set({ resolved: 1, resolved_at: now - 24 * 3_600_000 }).where('id', '=', recent).execute();
    const sweeper = new ErrorReports(db, { maxRows: 10, resolvedRetentionMs: 30 * 24 * 3_600_000 }, new LocalEventBus());
    await sweeper.sweep(now);
    const left = await rows();
    expect(left.map((row) => row.id)).not.toContain(old);
    expect(left.length).toBeLessThanOrEqual(10);
    // Open reports are kept before resolved ones.
    expect(left.every((row) => row.resolved === 0)).toBe(true);
  });
});
