import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import viteConfig from '../../../vite.config.js';
import { apiErrorSchema } from '../../common/contract/common.js';
import { openDatabase } from '../db/connection.js';
import type { App } from '../http/types.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { signInAs } from '../test/sign-in.js';

/**
 * What the server shows besides the product: metrics, caching of members' data, the security
 * headers on every kind of answer, source maps and the database files on disk (ADR 0017).
 */

const METRICS_TOKEN = 'metrics-token-for-tests-0123';

function metrics(app: App, remoteAddress: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
}

function expectApiError(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  const body = apiErrorSchema.parse(response.json());
  expect(body.code).toBe(code);
  return body;
}

describe('GET /metrics with METRICS_TOKEN set', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp({ metricsToken: METRICS_TOKEN });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('serves the metrics for the right bearer token, from anywhere', async () => {
    for (const address of ['203.0.113.5', '127.0.0.1']) {
      const response = await metrics(testApp.app, address, { authorization: `Bearer ${METRICS_TOKEN}` });
      expect(response.statusCode, address).toBe(200);
      expect(response.body).toMatch(/^# TYPE http_requests_total counter$/m);
    }
  });

  it('refuses a missing or wrong token with 401, even from this machine', async () => {
    const attempts: [string, Record<string, string>][] = [
      ['203.0.113.5', {}],
      ['203.0.113.5', { authorization: 'Bearer wrong-token-0123456789' }],
      ['203.0.113.5', { authorization: `Bearer ${METRICS_TOKEN}x` }],
      ['203.0.113.5', { authorization: `Basic ${Buffer.from(`x:${METRICS_TOKEN}`).toString('base64')}` }],
      ['127.0.0.1', {}],
    ];
    for (const [address, headers] of attempts) {
      const response = await metrics(testApp.app, address, headers);
      const body = expectApiError(response, 401, 'UNAUTHENTICATED');
      expect(body.message).toContain('Bearer');
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(response.body).not.toContain('http_requests_total');
      expect(response.body).not.toContain(METRICS_TOKEN);
    }
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  let testApp: TestApp;
  let behindProxy: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
    behindProxy = await createTestApp({ trustProxy: 1 });
  });
  afterAll(async () => {
    await testApp.close();
    await behindProxy.close();
  });

  it('serves loopback clients', async () => {
    for (const address of ['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1']) {
      expect((await metrics(testApp.app, address)).statusCode, address).toBe(200);
    }
  });

  it('answers anyone else 404 with a message that says how to open it up', async () => {
    for (const address of ['203.0.113.5', '10.0.0.2', '::ffff:10.0.0.2', '2001:db8::1']) {
      const body = expectApiError(await metrics(testApp.app, address), 404, 'NOT_FOUND');
      expect(body.message).toContain('METRICS_TOKEN');
    }
  });

  it('refuses a request a proxy on this machine relayed', async () => {
    expectApiError(await metrics(testApp.app, '127.0.0.1', { 'x-forwarded-for': '203.0.113.5' }), 404, 'NOT_FOUND');
    expectApiError(await metrics(testApp.app, '127.0.0.1', { forwarded: 'for=203.0.113.5' }), 404, 'NOT_FOUND');
    expectApiError(await metrics(behindProxy.app, '127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }), 404, 'NOT_FOUND');
  });
});

const PERMISSIONS_DENIED = ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'hid', 'display-capture'];

function expectSecurityHeaders(headers: Record<string, string | string[] | number | undefined>, what: string) {
  expect(String(headers['content-security-policy']), what).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['referrer-policy'], what).toBe('no-referrer');
  const permissions = String(headers['permissions-policy']);
  for (const feature of PERMISSIONS_DENIED) expect(permissions, `${what}: ${feature}`).toContain(`${feature}=()`);
  // Denied outright, not limited to 'self': no feature is granted anything.
  expect(permissions.split(',').every((entry) => /^\s*[a-z-]+=\(\)$/.test(entry)), what).toBe(true);
}

describe('caching of API answers', () => {
  let testApp: TestApp;
  let cookies: Record<string, string>;
  beforeAll(async () => {
    testApp = await createTestApp();
    cookies = await signInAs(testApp.app, 'Cache Carter');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('forbids storing any signed-in API answer', async () => {
    for (const url of ['/api/user', '/api/comments/counts', '/api/no-such-endpoint', '/%61pi/user']) {
      const response = await testApp.app.inject({ method: 'GET', url, cookies });
      expect(response.headers['cache-control'], `${url} (${response.statusCode})`).toBe('no-store');
    }
  });

  it('forbids storing the answers to signed-out API calls too', async () => {
    for (const url of ['/api/user', '/api/health']) {
      expect((await testApp.app.inject({ method: 'GET', url })).headers['cache-control'], url).toBe('no-store');
    }
  });

  it('keeps the architecture cacheable by the member’s own browser only', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/architecture', cookies });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, max-age=300');
  });
});

describe('security headers on every answer', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('on a 404', async () => {
    for (const url of ['/api/no-such-endpoint', '/no-such-file.js']) {
      const response = await testApp.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expectSecurityHeaders(response.headers, url);
    }
  });

  it('on a URL that cannot be decoded, answered 400 { message, code }', async () => {
    for (const url of ['/%', '/api/%E0%A4%A', '/api/comments/%E0%A4%A']) {
      const response = await testApp.app.inject({ method: 'GET', url });
      const body = expectApiError(response, 400, 'BAD_REQUEST');
      expect(body.message).toMatch(/^Malformed URL/);
      expectSecurityHeaders(response.headers, url);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('on a body the JSON parser refuses', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"password": ',
    });
    expectApiError(response, 400, 'BAD_REQUEST');
    expectSecurityHeaders(response.headers, 'invalid JSON');
  });

  it('on a 431 for headers over the limit, which Node answers before Fastify sees the request', async () => {
    const address = testApp.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('the test server has no port');
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(address.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
      });
      socket.on('error', reject);
      socket.on('close', () => {
        resolve(Buffer.concat(chunks).toString('latin1'));
      });
      socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    const [statusLine, ...headerLines] = head.split('\r\n');
    expect(statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    const headers = Object.fromEntries(
      headerLines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    expectSecurityHeaders(headers, '431');
    expect(apiErrorSchema.parse(JSON.parse(body))).toEqual({ message: 'Request headers are too large', code: 'HEADERS_TOO_LARGE' });
  });
});

describe('source maps', () => {
  const map = '{"version":3,"sources":["../../src/client/main.tsx"],"sourcesContent":["secret source"]}';
  let testApp: TestApp;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = await mkdtemp(path.join(tmpdir(), 'biggy-client-maps-'));
    await mkdir(path.join(clientDir, 'assets'));
    await mkdir(path.join(clientDir, '.vite'));
    await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(clientDir, 'assets', 'app-abc123.js'), 'console.log("app");\n');
    await writeFile(path.join(clientDir, 'assets', 'app-abc123.js.map'), map);
    await writeFile(path.join(clientDir, '.vite', 'manifest.json'), '{}');
    testApp = await createTestApp({ clientDir });
  });
  afterAll(async () => {
    await testApp.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  it('are not part of the client build', () => {
    expect(viteConfig.build?.sourcemap).toBe(false);
  });

  const DIST_CLIENT = fileURLToPath(new URL('../../../dist/client', import.meta.url));
  it.runIf(existsSync(DIST_CLIENT))('are absent from the built client in dist/client', () => {
    const maps = readdirSync(DIST_CLIENT, { recursive: true, encoding: 'utf8' }).filter((file) => /\.map(\.(gz|br))?$/.test(file));
    expect(maps).toEqual([]);
  });

  it('are not served even when one lies in the client directory', async () => {
    expect((await testApp.app.inject({ method: 'GET', url: '/assets/app-abc123.js' })).statusCode).toBe(200);
    for (const url of ['/assets/app-abc123.js.map', '/.vite/manifest.json']) {
      const response = await testApp.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('secret source');
    }
  });
});

describe('the SQLite database files', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'biggy-modes-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  // SQLite whatever TEST_DATABASE_URL says: the files exist only for the embedded database.
  it('are readable by the server’s user alone, -wal and -shm included', async () => {
    // The usual umask, which would leave new files world-readable (0644).
    const previous = process.umask(0o022);
    const dir = path.join(dataDir, 'data');
    const database = openDatabase({ dataDir: dir, databaseUrl: undefined });
    try {
      await sql`create table probe (value integer)`.execute(database.db);
      await sql`insert into probe (value) values (1)`.execute(database.db);
      const files = readdirSync(dir).sort();
      expect(files).toEqual(['app.db', 'app.db-shm', 'app.db-wal']);
      for (const file of files) expect((statSync(path.join(dir, file)).mode & 0o777).toString(8), file).toBe('600');
      expect((statSync(dir).mode & 0o777).toString(8)).toBe('700');
    } finally {
      process.umask(previous);
      await database.close();
    }
  });
});
