import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_REPORT_LIMITS } from '../../common/limits.js';
import { buildApp } from '../app.js';
import { openDatabase, type DatabaseHandle } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { testConfig } from '../test/test-app.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { RateLimiter } from './rate-limit.js';

const report = { source: 'frontend', errorType: 'api_error', message: 'failed to fetch', severity: 'medium' } as const;

describe('RateLimiter', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let limiter: RateLimiter;
  beforeAll(async () => {
    database = await createTestDatabase();
    handle = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
    await migrateToLatest(handle);
    limiter = new RateLimiter(handle.db);
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  const t0 = 1_700_000_000_000;
  const window = 60_000;

  it('counts hits per key within one window', async () => {
    expect(await limiter.hit('count:a', window, t0)).toEqual({ hits: 1, resetAt: t0 + window });
    expect(await limiter.hit('count:a', window, t0 + 10)).toEqual({ hits: 2, resetAt: t0 + window });
    expect(await limiter.hit('count:a', window, t0 + 20)).toEqual({ hits: 3, resetAt: t0 + window });
    expect(await limiter.hit('count:b', window, t0 + 20)).toEqual({ hits: 1, resetAt: t0 + 20 + window });
    expect(await limiter.hit('count:a', window, t0 + 30)).toEqual({ hits: 4, resetAt: t0 + window });
  });

  it('starts a new window once the old one has ended', async () => {
    await limiter.hit('reset:a', window, t0);
    await limiter.hit('reset:a', window, t0 + 1);
    expect(await limiter.hit('reset:a', window, t0 + window - 1)).toEqual({ hits: 3, resetAt: t0 + window });
    expect(await limiter.hit('reset:a', window, t0 + window)).toEqual({ hits: 1, resetAt: t0 + 2 * window });
    expect(await limiter.hit('reset:a', window, t0 + window + 5)).toEqual({ hits: 2, resetAt: t0 + 2 * window });
    expect(await limiter.hit('reset:a', window, t0 + 5 * window)).toEqual({ hits: 1, resetAt: t0 + 6 * window });
  });

  it('counts 100 concurrent hits exactly', async () => {
    const results = await Promise.all(Array.from({ length: 100 }, () => limiter.hit('concurrent:a', window, t0)));
    expect(results.map((result) => result.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(new Set(results.map((result) => result.resetAt))).toEqual(new Set([t0 + window]));
    expect((await limiter.hit('concurrent:a', window, t0)).hits).toBe(101);
  });

  it('keeps very long keys distinct and storable', async () => {
    const long = (suffix: string) => `long:${'k'.repeat(500)}${suffix}`;
    expect((await limiter.hit(long('1'), window, t0)).hits).toBe(1);
    expect((await limiter.hit(long('1'), window, t0)).hits).toBe(2);
    expect((await limiter.hit(long('2'), window, t0)).hits).toBe(1);
  });

  it('refunds a charge in its own window only, atomically under concurrency', async () => {
    const rule = { name: 'refund', max: 100, windowMs: window };
    const charges = await Promise.all(Array.from({ length: 50 }, () => limiter.charge(rule, 'a')));
    await Promise.all(charges.slice(0, 30).map((charge) => limiter.refundCharge(charge)));
    const bucket = () => handle.db.selectFrom('rate_limit_buckets').select(['hits', 'reset_at']).where('key', '=', 'refund:a').executeTakeFirstOrThrow();
    expect((await bucket()).hits).toBe(20);
    // A refund that arrives after its window ended gives nothing back in the next one.
    const stale = { key: 'refund:b', resetAt: t0 + window };
    await limiter.hit('refund:b', window, t0);
    await limiter.hit('refund:b', window, t0 + window);
    await limiter.refundCharge(stale);
    const next = await handle.db.selectFrom('rate_limit_buckets').select('hits').where('key', '=', 'refund:b').executeTakeFirstOrThrow();
    expect(next.hits).toBe(1);
  });

  it('deletes only expired buckets', async () => {
    await limiter.hit('sweep:expired', window, t0);
    await limiter.hit('sweep:live', window, t0 + window);
    await limiter.deleteExpired(t0 + window);
    const keys = (await handle.db.selectFrom('rate_limit_buckets').select('key').where('key', 'like', 'sweep:%').execute()).map(
      (row) => row.key,
    );
    expect(keys).toEqual(['sweep:live']);
  });
});

describe('rate limits across app restarts', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  const send = (app: Awaited<ReturnType<typeof buildApp>>, remoteAddress: string) =>
    app.inject({ method: 'POST', url: '/api/errors/log', remoteAddress, payload: report });

  it('still refuses a client that used up its budget before the restart', async () => {
    const address = '203.0.113.77';
    const first = await buildApp(testConfig(database), { collectProcessMetrics: false });
    try {
      for (let i = 0; i < ERROR_REPORT_LIMITS.perMinutePerIp; i += 1) {
        expect((await send(first, address)).statusCode).toBe(201);
      }
      expect((await send(first, address)).statusCode).toBe(429);
    } finally {
      // Closes the app and its connections; the database itself stays.
      await first.close();
    }

    const second = await buildApp(testConfig(database), { collectProcessMetrics: false });
    try {
      const limited = await send(second, address);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await send(second, '203.0.113.78')).statusCode).toBe(201);
      // Every accepted report survived too: the restart lost nothing (identical reports share a row and count up).
      const rows = await second.database.db.selectFrom('error_logs').select('occurrences').execute();
      expect(rows.reduce((sum, row) => sum + row.occurrences, 0)).toBe(ERROR_REPORT_LIMITS.perMinutePerIp + 1);
    } finally {
      await second.close();
    }
  });
});
