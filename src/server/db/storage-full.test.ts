import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentRoutes } from '../../common/api/comments.js';
import { buildPath } from '../../common/api/route.js';
import { apiErrorSchema } from '../../common/contract/common.js';
import { healthResponseSchema } from '../../common/contract/health.js';
import type { App } from '../http/types.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { apiCall, signInAs, type SessionCookies } from '../test/sign-in.js';

/**
 * The disk under the embedded database filling up. SQLite's max_page_count makes the database
 * full at its current size: writes then fail with SQLITE_FULL exactly as on a full disk.
 */
describe.skipIf(process.env.TEST_DATABASE_URL !== undefined && process.env.TEST_DATABASE_URL !== '')('a full disk under SQLite', () => {
  let testApp: TestApp;
  let app: App;
  let member: SessionCookies;

  beforeAll(async () => {
    testApp = await createTestApp({ commentLimitPerMinute: 10_000 });
    app = testApp.app;
    member = await signInAs(app, 'Erin Diskfull');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const pageCount = async () => (await sql<{ page_count: number }>`pragma page_count`.execute(app.database.db)).rows[0]?.page_count ?? 0;
  const setMaxPages = (pages: number) => sql.raw(`pragma max_page_count = ${pages}`).execute(app.database.db);
  const post = (content: string) => apiCall(app, 'POST', commentRoutes.create.path, member, { componentId: 'agentic-triage', content });
  const health = async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    return healthResponseSchema.parse(response.json());
  };

  it('answers 507 with a message, reports degraded health, keeps reads working, and recovers without a restart', async () => {
    const before = await post('Written while there is room');
    expect(before.statusCode).toBe(201);
    await setMaxPages(await pageCount());

    let full: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 200 && full === undefined; i += 1) {
      const response = await post(`Filling the disk ${i} ${'x'.repeat(1500)}`);
      if (response.statusCode !== 201) full = response;
    }
    expect(full?.statusCode, full?.body).toBe(507);
    const error = apiErrorSchema.parse(full?.json());
    expect(error.code).toBe('STORAGE_FULL');
    expect(error.message).toMatch(/disk space/);
    expect(full?.headers['retry-after']).toBeDefined();

    const degraded = await health();
    expect(degraded.status).toBe('degraded');
    expect(degraded.reason).toMatch(/disk/);
    // Reading needs no room.
    const list = await apiCall(app, 'GET', buildPath(commentRoutes.withVotes.path, { componentId: 'agentic-triage' }), member);
    expect(list.statusCode).toBe(200);

    await setMaxPages(1_073_741_823);
    expect((await health()).status).toBe('ok');
    expect((await post('Written once there is room again')).statusCode).toBe(201);
  });
});
