import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthUnavailableSchema } from '../../common/contract/health.js';
import { baseUrlOf, openStream } from '../test/event-stream.js';
import { signInAs, type SessionCookies } from '../test/sign-in.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** What a graceful stop looks like from outside, from the moment it begins (main.ts begins it on SIGTERM). */
describe('draining before a stop', () => {
  let testApp: TestApp;
  let member: SessionCookies;

  beforeAll(async () => {
    testApp = await createTestApp();
    member = await signInAs(testApp.app, 'Flynn Drain');
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('turns health 503 at once, closes each connection after its answer, and ends streams with a reconnect hint', async () => {
    const { app } = testApp;
    const stream = await openStream(baseUrlOf(app), member);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/architecture', cookies: member })).headers.connection).not.toBe('close');

    app.drain.begin();

    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(healthUnavailableSchema.parse(health.json())).toMatchObject({ status: 'draining', code: 'SHUTTING_DOWN' });
    // Requests still arriving on kept-alive connections are served, and told the connection ends.
    const served = await app.inject({ method: 'GET', url: '/api/architecture', cookies: member });
    expect(served.statusCode).toBe(200);
    expect(served.headers.connection).toBe('close');

    await stream.waitFor('the stream to end', () => stream.ended, 2000);
    expect(stream.retry).toBeLessThanOrEqual(500);
  });
});
