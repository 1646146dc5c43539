import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthResponseSchema } from '../../../common/contract/health.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('GET /api/health', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('answers 200 with the database round-trip time', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    const body = healthResponseSchema.parse(response.json());
    expect(body.database.dialect).toBe(testApp.database.dialect);
    expect(body.database.roundTripMs).toBeGreaterThanOrEqual(0);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 when the database is unreachable', async () => {
    await testApp.app.database.close();
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', message: 'The database is unreachable', code: 'DATABASE_UNAVAILABLE' });
  });
});
