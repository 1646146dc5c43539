import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A database of its own for one test file (or one e2e server): a fresh SQLite file in a temporary
 * directory, or, when TEST_DATABASE_URL is set, a fresh PostgreSQL database created on that server.
 * `drop()` removes both.
 */
export interface TestDatabase {
  dataDir: string;
  databaseUrl: string | undefined;
  dialect: 'sqlite' | 'postgres';
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'biggy-test-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl === undefined || adminUrl === '') {
    return { dataDir, databaseUrl: undefined, dialect: 'sqlite', drop: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const name = `biggy_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(adminUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    dialect: 'postgres',
    async drop() {
      await withAdminClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function withAdminClient<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
