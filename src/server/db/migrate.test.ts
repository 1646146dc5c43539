import { spawn } from 'node:child_process';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { openDatabase, type DatabaseHandle } from './connection.js';
import { migrateToLatest } from './migrate.js';
import { migrations } from './migrations/index.js';
import type { Migration } from './migrations/types.js';
import type { Database } from './schema.js';

const migrationNames = migrations.map((migration) => migration.name);

/** Opens a fresh database of the configured engine; everything opened is closed and dropped after the test. */
const opened: { handle: DatabaseHandle; database: TestDatabase }[] = [];
async function freshDatabase(): Promise<{ handle: DatabaseHandle; database: TestDatabase }> {
  const database = await createTestDatabase();
  const handle = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl, poolSize: 4 });
  const entry = { handle, database };
  opened.push(entry);
  return entry;
}
afterEach(async () => {
  for (const { handle, database } of opened.splice(0)) {
    await handle.close();
    await database.drop();
  }
});

async function tableNames(db: Kysely<Database>): Promise<string[]> {
  return (await db.introspection.getTables()).map((table) => table.name);
}

async function recordedMigrations(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('schema_migrations').select('name').orderBy('name').execute();
  return rows.map((row) => row.name);
}

describe('migrateToLatest', () => {
  it('applies every migration once, returns their names, and records one row each', async () => {
    const { handle } = await freshDatabase();
    expect(migrationNames.length).toBeGreaterThan(0);

    expect(await migrateToLatest(handle)).toEqual(migrationNames);
    expect(await migrateToLatest(handle)).toEqual([]);

    expect(await recordedMigrations(handle.db)).toEqual([...migrationNames].sort());
    const tables = await tableNames(handle.db);
    expect(tables).toEqual(expect.arrayContaining(['schema_migrations', 'error_logs', 'rate_limit_buckets']));
    const appliedAt = await handle.db.selectFrom('schema_migrations').select('applied_at').execute();
    for (const row of appliedAt) expect(typeof row.applied_at).toBe('number');
  });

  it('applies only the migrations appended since the last run', async () => {
    const { handle } = await freshDatabase();
    await migrateToLatest(handle);
    const appended: Migration = {
      name: '9999-appended',
      async up(db) {
        await db.schema.createTable('appended_probe').addColumn('id', 'integer').execute();
      },
    };
    expect(await migrateToLatest(handle, [...migrations, appended])).toEqual(['9999-appended']);
    expect(await migrateToLatest(handle, [...migrations, appended])).toEqual([]);
    expect(await tableNames(handle.db)).toContain('appended_probe');
    expect(await recordedMigrations(handle.db)).toEqual([...migrationNames, '9999-appended'].sort());
  });

  it('keeps the error reports stored before grouping, each as a group of one', async () => {
    const { handle } = await freshDatabase();
    const grouping = migrations.findIndex((migration) => migration.name === '0006-error-report-groups');
    await migrateToLatest(handle, migrations.slice(0, grouping));
    const createdAt = 1_700_000_000_000;
    for (const message of ['first', 'first', 'second']) {
      await sql`insert into error_logs (error_type, message, severity, source, created_at) values ('api_error', ${message}, 'high', 'frontend', ${createdAt})`.execute(handle.db);
    }
    await migrateToLatest(handle);
    const rows = await handle.db.selectFrom('error_logs').select(['message', 'occurrences', 'last_seen_at', 'group_key']).orderBy('id').execute();
    expect(rows.map((row) => [row.message, row.occurrences, row.last_seen_at])).toEqual([
      ['first', 1, createdAt],
      ['first', 1, createdAt],
      ['second', 1, createdAt],
    ]);
    expect(new Set(rows.map((row) => row.group_key)).size).toBe(3);
  });

  it('keeps the comments and votes of the previous version, open, with their counts', async () => {
    const { handle } = await freshDatabase();
    const resolution = migrations.findIndex((migration) => migration.name === '0013-comment-resolution');
    await migrateToLatest(handle, migrations.slice(0, resolution));
    await sql`insert into members (full_name, name_key, first_name, last_name, role, active, created_at) values ('Wen Li', 'wen li', 'Wen', 'Li', 'member', 1, 1)`.execute(handle.db);
    const member = await handle.db.selectFrom('members').select('id').where('name_key', '=', 'wen li').executeTakeFirstOrThrow();
    for (const [component, content] of [['alert-ingestion', 'one'], ['alert-ingestion', 'two'], ['agentic-triage', 'three']]) {
      await sql`insert into comments (component_id, kind, content, member_id, member_name, created_at) values (${component}, 'comment', ${content}, ${member.id}, 'Wen Li', 5)`.execute(handle.db);
    }
    const first = await handle.db.selectFrom('comments').select('id').where('content', '=', 'one').executeTakeFirstOrThrow();
    await sql`insert into comment_votes (comment_id, member_id, member_name, vote_type, created_at) values (${first.id}, ${member.id}, 'Wen Li', 'thumbs_up', 6)`.execute(handle.db);

    await migrateToLatest(handle);
    const comments = await handle.db.selectFrom('comments').select(['content', 'resolved_at', 'resolved_by_name', 'resolution_note']).orderBy('id').execute();
    expect(comments).toEqual(['one', 'two', 'three'].map((content) => ({ content, resolved_at: null, resolved_by_name: null, resolution_note: null })));
    expect(await handle.db.selectFrom('comment_votes').select('vote_type').execute()).toEqual([{ vote_type: 'thumbs_up' }]);
    const counts = await handle.db.selectFrom('comment_counts').select(['component_id', 'comment_count', 'resolved_count']).orderBy('component_id').execute();
    expect(counts).toEqual([
      { component_id: 'agentic-triage', comment_count: 1, resolved_count: 0 },
      { component_id: 'alert-ingestion', comment_count: 2, resolved_count: 0 },
    ]);
    // The new triggers count a resolution on the migrated rows.
    await handle.db.updateTable('comments').set({ resolved_at: 9, resolved_by_name: 'Wen Li' }).where('id', '=', first.id).execute();
    const after = await handle.db.selectFrom('comment_counts').select(['comment_count', 'resolved_count']).where('component_id', '=', 'alert-ingestion').executeTakeFirstOrThrow();
    expect(after).toEqual({ comment_count: 2, resolved_count: 1 });
  });

  it('keeps the suggestions and votes of the version before outcomes, each open with no owner, and starts with no decisions', async () => {
    const { handle } = await freshDatabase();
    const decisions = migrations.findIndex((migration) => migration.name === '0014-component-decisions');
    await migrateToLatest(handle, migrations.slice(0, decisions));
    await sql`insert into members (full_name, name_key, first_name, last_name, role, active, created_at) values ('Wen Li', 'wen li', 'Wen', 'Li', 'member', 1, 1)`.execute(handle.db);
    const member = await handle.db.selectFrom('members').select('id').where('name_key', '=', 'wen li').executeTakeFirstOrThrow();
    await sql`insert into suggestion_generations (status, started_at, finished_at, requested_by) values ('done', 1, 2, 'Wen Li')`.execute(handle.db);
    const generation = await handle.db.selectFrom('suggestion_generations').select('id').executeTakeFirstOrThrow();
    for (const [text, status] of [['Page the secondary after ten minutes', 'active'], ['Archive the old runbook', 'archived']]) {
      await sql`insert into suggestions (suggestion, recommendation_type, components, member_initials, sources, status, generation_id, created_at, updated_at)
        values (${text}, 'content', '["agentic-triage"]', '["WL"]', '[1]', ${status}, ${generation.id}, 3, 3)`.execute(handle.db);
    }
    const first = await handle.db.selectFrom('suggestions').select('id').orderBy('id').executeTakeFirstOrThrow();
    await sql`insert into suggestion_votes (suggestion_id, member_id, member_name, vote_type, created_at) values (${first.id}, ${member.id}, 'Wen Li', 'thumbs_up', 4)`.execute(handle.db);

    await migrateToLatest(handle);
    const rows = await handle.db
      .selectFrom('suggestions')
      .select(['suggestion', 'status', 'review_status', 'status_reason', 'status_by_name', 'status_at', 'owner_member_id', 'owner_name', 'due_date'])
      .orderBy('id')
      .execute();
    const untouched = { review_status: 'open', status_reason: null, status_by_name: null, status_at: null, owner_member_id: null, owner_name: null, due_date: null };
    expect(rows).toEqual([
      { suggestion: 'Page the secondary after ten minutes', status: 'active', ...untouched },
      { suggestion: 'Archive the old runbook', status: 'archived', ...untouched },
    ]);
    expect(await handle.db.selectFrom('suggestion_votes').select(['suggestion_id', 'vote_type']).execute()).toEqual([{ suggestion_id: first.id, vote_type: 'thumbs_up' }]);
    expect(await handle.db.selectFrom('component_decisions').selectAll().execute()).toEqual([]);
  });

  it('rolls back completely when a migration fails', async () => {
    const { handle } = await freshDatabase();
    const failing: Migration[] = [
      {
        name: '0001-creates-a-table',
        async up(db) {
          await db.schema.createTable('rollback_probe').addColumn('id', 'integer').execute();
          await sql`insert into rollback_probe (id) values (1)`.execute(db);
        },
      },
      {
        name: '0002-throws',
        up() {
          return Promise.reject(new Error('migration exploded'));
        },
      },
    ];

    await expect(migrateToLatest(handle, failing)).rejects.toThrow('migration exploded');

    const tables = await tableNames(handle.db);
    expect(tables).not.toContain('rollback_probe');
    // The bookkeeping table was created in the same transaction, so it is gone too (or at least empty).
    if (tables.includes('schema_migrations')) expect(await recordedMigrations(handle.db)).toEqual([]);

    // The connection is usable afterwards and the real migrations still apply from scratch.
    expect(await migrateToLatest(handle)).toEqual(migrationNames);
  });

  it('keeps earlier migrations when a later one fails on a migrated database', async () => {
    const { handle } = await freshDatabase();
    await migrateToLatest(handle);
    await handle.db.insertInto('rate_limit_buckets').values({ key: 'kept', hits: 1, reset_at: 1 }).execute();
    const broken: Migration = {
      name: '9999-broken',
      async up(db) {
        await db.schema.dropTable('rate_limit_buckets').execute();
        throw new Error('second step failed');
      },
    };

    await expect(migrateToLatest(handle, [...migrations, broken])).rejects.toThrow('second step failed');

    expect(await recordedMigrations(handle.db)).toEqual([...migrationNames].sort());
    const kept = await handle.db.selectFrom('rate_limit_buckets').select('key').execute();
    expect(kept).toEqual([{ key: 'kept' }]);
  });
});

// Four cold Node processes compiling TypeScript take a while on a busy two-core machine.
describe('migrate-cli run by several processes at once', { timeout: 45_000 }, () => {
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.drop();
  });

  function runCli(target: TestDatabase): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: target.dataDir };
    delete env.NODE_OPTIONS;
    if (target.databaseUrl === undefined) delete env.DATABASE_URL;
    else env.DATABASE_URL = target.databaseUrl;
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/db/migrate-cli.ts'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => { resolve({ code, stdout, stderr }); });
    });
  }

  it('applies each migration exactly once', async () => {
    const target = await createTestDatabase();
    database = target;

    const results = await Promise.all([runCli(target), runCli(target), runCli(target), runCli(target)]);

    const appliedLists = results.map((result) => {
      expect(result.code, result.stderr).toBe(0);
      const line = result.stdout.trim().split('\n').at(-1) ?? '';
      const parsed = JSON.parse(line) as { applied: unknown };
      expect(Array.isArray(parsed.applied)).toBe(true);
      return parsed.applied as string[];
    });
    for (const name of migrationNames) {
      expect(appliedLists.filter((list) => list.includes(name))).toHaveLength(1);
    }
    expect(appliedLists.flat().sort()).toEqual([...migrationNames].sort());

    const handle = openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl, poolSize: 1 });
    try {
      expect(await recordedMigrations(handle.db)).toEqual([...migrationNames].sort());
      expect(await tableNames(handle.db)).toEqual(expect.arrayContaining(['error_logs', 'rate_limit_buckets']));
      expect(await migrateToLatest(handle)).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});
