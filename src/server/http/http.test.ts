import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../common/contract/common.js';
import { ROUTES } from '../../common/routes.js';
import { buildApp } from '../app.js';
import { testConfig } from '../test/test-app.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import type { App } from './types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An app on a fresh database whose log lines are kept for inspection. */
async function createLoggedApp(overrides: Parameters<typeof testConfig>[1] = {}) {
  const database = await createTestDatabase();
  const logLines: Record<string, unknown>[] = [];
  const app = await buildApp(testConfig(database, { logLevel: 'info', ...overrides }), {
    collectProcessMetrics: false,
    logDestination: {
      write(line: string) {
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  });
  return { app, database, logLines };
}

function cspDirectives(response: LightMyRequestResponse): Map<string, string[]> {
  const header = response.headers['content-security-policy'];
  expect(typeof header).toBe('string');
  const directives = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name !== undefined && name !== '') directives.set(name, values);
  }
  return directives;
}

function expectSecurityHeaders(response: LightMyRequestResponse) {
  const csp = cspDirectives(response);
  expect(csp.get('script-src')).toContain("'self'");
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  expect(csp.get('script-src')).not.toContain("'unsafe-eval'");
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['x-powered-by']).toBeUndefined();
}

describe('the API surface', () => {
  let app: App;
  let database: TestDatabase;
  let logLines: Record<string, unknown>[];
  beforeAll(async () => {
    ({ app, database, logLines } = await createLoggedApp());
    // buildApp hands back an app that is not ready yet, so a test can still add a route to it.
    app.get('/api/test-throw', { config: { access: 'public' } }, () => {
      throw new Error('secret internals at /srv/app/db.ts:42');
    });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it('answers an unknown /api path with 404 JSON { message, code: NOT_FOUND }', async () => {
    for (const url of ['/api/nope', '/api/errors/log/extra', '/api', '/api/health/deeper?x=1']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const body = apiErrorSchema.parse(response.json());
      expect(body.code).toBe('NOT_FOUND');
      expect(body.message.length).toBeGreaterThan(0);
    }
    const wrongMethod = await app.inject({ method: 'DELETE', url: '/api/health' });
    expect(wrongMethod.statusCode).toBe(404);
    expect(apiErrorSchema.parse(wrongMethod.json()).code).toBe('NOT_FOUND');
  });

  it('answers a non-API path with 404 JSON when no client bundle is served', async () => {
    const response = await app.inject({ method: 'GET', url: '/analytics' });
    expect(response.statusCode).toBe(404);
    expect(apiErrorSchema.parse(response.json()).code).toBe('NOT_FOUND');
  });

  it('turns an unexpected error into 500 { message, code: INTERNAL_ERROR, errorId } without internals', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test-throw', headers: { 'x-request-id': 'throw-test-1' } });
    expect(response.statusCode).toBe(500);
    const body = apiErrorSchema.parse(response.json());
    expect(body.code).toBe('INTERNAL_ERROR');
    expect(body.errorId).toMatch(UUID);
    expect(body.message).toContain(body.errorId);
    expect(Object.keys(response.json<object>()).sort()).toEqual(['code', 'errorId', 'message']);
    for (const leak of ['secret internals', '/srv/app', 'db.ts', 'stack', 'Error:', '    at ']) {
      expect(response.body).not.toContain(leak);
    }

    // The stack goes to the log instead, under the same error id and the request's id.
    const logged = logLines.find((line) => line.errorId === body.errorId);
    expect(logged).toBeDefined();
    expect(logged?.reqId).toBe('throw-test-1');
    expect(JSON.stringify(logged?.err)).toContain('secret internals');
  });

  it('sets the security headers on API answers, errors included', async () => {
    expectSecurityHeaders(await app.inject({ method: 'GET', url: '/api/health' }));
    expectSecurityHeaders(await app.inject({ method: 'GET', url: '/api/nope' }));
    expectSecurityHeaders(await app.inject({ method: 'GET', url: '/api/test-throw' }));
  });

  it('sends no HSTS over plain HTTP, and ignores a forwarded proto when no proxy is trusted', async () => {
    const plain = await app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const spoofed = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });

  it('echoes a well-formed x-request-id and replaces a malformed one', async () => {
    const echoed = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'lb-7f3a.42:edge_1' } });
    expect(echoed.headers['x-request-id']).toBe('lb-7f3a.42:edge_1');

    for (const malformed of ['has space', '<script>', 'a'.repeat(65), 'quote"d', 'new\\nline']) {
      const response = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': malformed } });
      expect(response.headers['x-request-id'], malformed).toMatch(UUID);
    }

    const first = await app.inject({ method: 'GET', url: '/api/nope' });
    const second = await app.inject({ method: 'GET', url: '/api/nope' });
    expect(first.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).toMatch(UUID);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
  });

  it('logs every request line with its request id', async () => {
    await app.inject({ method: 'GET', url: '/api/user', headers: { 'x-request-id': 'logged-request-1' } });
    const lines = logLines.filter((line) => line.reqId === 'logged-request-1');
    expect(lines.some((line) => 'req' in line)).toBe(true);
    expect(lines.some((line) => 'res' in line)).toBe(true);
    for (const line of logLines.filter((entry) => 'req' in entry || 'res' in entry)) {
      expect(typeof line.reqId).toBe('string');
    }
  });

  it('never logs credentials carried in headers', async () => {
    await app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { 'x-request-id': 'credential-request', cookie: 'session=cookie-secret-value', authorization: 'Bearer bearer-secret-value' },
    });
    const text = JSON.stringify(logLines);
    expect(text).not.toContain('cookie-secret-value');
    expect(text).not.toContain('bearer-secret-value');
  });

  it('exposes Prometheus metrics labelled by route pattern, never by raw URL', async () => {
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    await app.inject({ method: 'GET', url: '/api/probe-7c1e9b2d' });
    await app.inject({ method: 'GET', url: '/wp-admin/probe-5d8f0a.php?token=raw-query-text' });

    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const text = response.body;
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/api\/health",status_code="200"\} [1-9]\d*$/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/api\/health",status_code="200"\} \d+$/m);
    expect(text).toMatch(/^# TYPE http_requests_total counter$/m);
    // The probes are counted, but under a bounded label.
    const notFoundSeries = /^http_requests_total\{method="GET",route="([^"]*)",status_code="404"\} (\d+)$/m.exec(text);
    expect(notFoundSeries?.[1]).toBe('(unmatched)');
    expect(Number(notFoundSeries?.[2])).toBeGreaterThanOrEqual(2);
    for (const raw of ['probe-7c1e9b2d', 'probe-5d8f0a', 'wp-admin', 'raw-query-text']) {
      expect(text).not.toContain(raw);
    }
  });

  it('counts each request once', async () => {
    const count = async () => {
      const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
      const match = /^http_requests_total\{method="GET",route="\/api\/user",status_code="401"\} (\d+)$/m.exec(text);
      return Number(match?.[1] ?? 0);
    };
    const before = await count();
    await app.inject({ method: 'GET', url: '/api/user' });
    await app.inject({ method: 'GET', url: '/api/user' });
    expect(await count()).toBe(before + 2);
  });

  it('answers GET /api/user with 401 { message, code: UNAUTHENTICATED }', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/user' });
    expect(response.statusCode).toBe(401);
    const body = apiErrorSchema.parse(response.json());
    expect(body.code).toBe('UNAUTHENTICATED');
    expect(body.message.length).toBeGreaterThan(0);
  });
});

describe('the single-page app and its assets', () => {
  const indexHtml = '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>';
  const assetJs = 'console.log("app");\n';
  let app: App;
  let database: TestDatabase;
  let clientDir: string;

  beforeAll(async () => {
    clientDir = await mkdtemp(path.join(tmpdir(), 'biggy-client-'));
    await mkdir(path.join(clientDir, 'assets'));
    await writeFile(path.join(clientDir, 'index.html'), indexHtml);
    await writeFile(path.join(clientDir, 'assets', 'app-abc123.js'), assetJs);
    await writeFile(path.join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    database = await createTestDatabase();
    app = await buildApp(testConfig(database, { clientDir, trustProxy: 1 }), { collectProcessMetrics: false });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
    await rm(clientDir, { recursive: true, force: true });
  });

  it('has a test for every screen of the product', () => {
    expect(Object.values(ROUTES).sort()).toEqual(
      ['/', '/admin', '/analytics', '/biggy-capabilities', '/development-principles', '/suggestions'].sort(),
    );
  });

  it.each(['/', '/development-principles', '/biggy-capabilities', '/analytics', '/suggestions', '/admin', '/analytics/', '/admin?tab=errors'])(
    'serves index.html for %s with 200 and no-cache',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(indexHtml);
    },
  );

  it('serves index.html with 404 for an unknown page, so the SPA shows Page Not Found', async () => {
    for (const url of ['/some/unknown', '/analytics/extra', '/Admin']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(indexHtml);
    }
  });

  it('sets the security headers on the page', async () => {
    const page = await app.inject({ method: 'GET', url: '/' });
    expectSecurityHeaders(page);
    expectSecurityHeaders(await app.inject({ method: 'GET', url: '/some/unknown' }));
    expectSecurityHeaders(await app.inject({ method: 'GET', url: '/assets/app-abc123.js' }));
  });

  it('caches hashed assets immutably for a year', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    const cacheControl = String(response.headers['cache-control']);
    expect(cacheControl).toContain('immutable');
    expect(cacheControl).toContain('max-age=31536000');
    expect(response.body).toBe(assetJs);
  });

  it('makes files outside /assets revalidate', async () => {
    const response = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing asset with 404, not with index.html', async () => {
    for (const url of ['/assets/missing.js', '/missing.png', '/assets/../../etc/passwd.txt']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('<div id="root">');
    }
  });

  it('keeps /api answers as JSON next to the SPA', async () => {
    const user = await app.inject({ method: 'GET', url: '/api/user' });
    expect(user.statusCode).toBe(401);
    expect(apiErrorSchema.parse(user.json()).code).toBe('UNAUTHENTICATED');

    const unknown = await app.inject({ method: 'GET', url: '/api/unknown-thing' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/json/);
    expect(apiErrorSchema.parse(unknown.json()).code).toBe('NOT_FOUND');
  });

  it('does not serve the page for methods other than GET', async () => {
    const response = await app.inject({ method: 'POST', url: '/some/unknown', payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('<div id="root">');
  });

  it('sends HSTS only when a trusted proxy says the request came over HTTPS', async () => {
    const plain = await app.inject({ method: 'GET', url: '/' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const viaHttps = await app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(String(viaHttps.headers['strict-transport-security'])).toMatch(/max-age=\d{7,}/);
    const api = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(api.headers['strict-transport-security']).toBeDefined();
  });
});
