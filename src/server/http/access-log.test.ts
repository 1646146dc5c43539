import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { testConfig } from '../test/test-app.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import type { App } from './types.js';

/** An enrollment token is a credential: no spelling of its path writes it to the access log. */

// Shaped like a real token (43 URL-safe characters), so the route takes it as one.
const TOKEN = 'Tk3nSecretEnrollmentValue0123456789abcdefGH';

const SPELLINGS = [
  `/enroll/${TOKEN}`,
  `/%65nroll/${TOKEN}`,
  `/%65%6Erol%6C/${TOKEN}`,
  `//enroll/${TOKEN}`,
  `///enroll//${TOKEN}`,
  `/ENROLL/${TOKEN}`,
  `/Enroll/${TOKEN}?next=/`,
  `/enroll/${TOKEN}/`,
  `/%2565nroll/${TOKEN}`,
  `/enroll%2F${TOKEN}`,
  `/x/../enroll/${TOKEN}`,
  `/api/../enroll/${TOKEN}`,
  `/enroll;x/${TOKEN}`,
  `/enroll;jsessionid=1/${TOKEN}`,
];

describe.each([
  ['without a client build (not-found answers)', false],
  ['with a client build (the page fallback)', true],
])('access log, %s', (_name, withClient) => {
  let database: TestDatabase;
  let app: App;
  let clientDir: string | undefined;
  const lines: string[] = [];

  beforeAll(async () => {
    if (withClient) {
      clientDir = await mkdtemp(path.join(tmpdir(), 'biggy-client-'));
      await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><title>Biggy</title><div id="root"></div>');
    }
    database = await createTestDatabase();
    app = await buildApp(testConfig(database, { logLevel: 'trace', signInLimitPerMinute: 10_000, clientDir }), {
      collectProcessMetrics: false,
      logDestination: {
        write(line: string) {
          lines.push(line);
        },
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
    if (clientDir !== undefined) await rm(clientDir, { recursive: true, force: true });
  });

  it.each(SPELLINGS)('never writes the token of %s', async (url) => {
    const start = lines.length;
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBeLessThan(500);
    const written = lines.slice(start);
    expect(written.length).toBeGreaterThan(0);
    for (const line of written) {
      expect(line).not.toContain(TOKEN);
      expect(line.toLowerCase()).not.toContain(TOKEN.toLowerCase());
    }
    expect(written.some((line) => line.includes('"url":"/enroll/[token]"'))).toBe(true);
  });

  it('logs other addresses as they are', async () => {
    const start = lines.length;
    await app.inject({ method: 'GET', url: '/analytics?tab=users' });
    expect(lines.slice(start).some((line) => line.includes('"url":"/analytics?tab=users"'))).toBe(true);
  });
});
