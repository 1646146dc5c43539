import { SESSION_CACHE_TTL_MS } from '../modules/auth/session-cache.js';
import { buildApp } from '../app.js';
import type { AppConfig } from '../config.js';
import type { App } from '../http/types.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export const TEST_SECRETS = {
  teamPassword: 'team-password-for-tests',
  adminPassword: 'admin-password-for-tests',
  qaPin: '6183',
  pinPepper: 'pepper-for-tests-0123456789',
} as const;

export function testConfig(database: Pick<TestDatabase, 'dataDir' | 'databaseUrl'>, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    publicUrl: 'http://review.test',
    dataDir: database.dataDir,
    databaseUrl: database.databaseUrl,
    database: { poolSize: 10, poolWaitMs: 1000, startupWaitMs: 0 },
    drainMs: 10_000,
    adminName: 'Avery Admin',
    qaUserName: 'QA Test User',
    ai: { provider: 'local', baseUrl: undefined, apiKey: undefined, model: 'gpt-4o-mini', localBudgetMs: 20_000, workers: 1 },
    session: { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000, cacheMs: SESSION_CACHE_TTL_MS },
    signInLimitPerMinute: 10,
    commentLimitPerMinute: 30,
    logLevel: 'silent',
    trustProxy: false,
    metricsToken: undefined,
    errorLogs: { maxRows: 10_000, resolvedRetentionMs: 30 * 24 * 3_600_000 },
    activityRetentionDays: 180,
    aiPromptHistoryMax: 200,
    clientDir: undefined,
    secrets: { ...TEST_SECRETS },
    secretSources: { teamPassword: 'environment', adminPassword: 'environment', qaPin: 'generated', pinPepper: 'generated' },
    ...overrides,
  };
}

export interface TestApp {
  app: App;
  database: TestDatabase;
  /** Closes the app and drops its database. */
  close(): Promise<void>;
}

/**
 * A real app on a fresh database of the configured engine; call close() in afterAll. Its self-test
 * runs without the pauses between checks (pacing.test.ts covers them; the browser tests run the
 * self-test paced, as served).
 */
export async function createTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const app = await buildApp(testConfig(database, overrides), { collectProcessMetrics: false, qaPauseBetweenChecksMs: 0 });
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
