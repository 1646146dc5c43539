import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../common/api/index.js';
import { buildPath } from '../../common/api/route.js';
import { commentSchema } from '../../common/contract/comments.js';
import { buildApp } from '../app.js';
import { commentableComponentIds, loadArchitecture } from '../content/validate.js';
import type { App } from '../http/types.js';
import { seedDemo } from '../seed/demo-seed.js';
import { apiCall, signInAs, type SessionCookies } from '../test/sign-in.js';
import { createTestApp, testConfig, type TestApp } from '../test/test-app.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { BACKUP_FORMAT, backupDatabase, BackupError, restoreDatabase, type DatabaseLocation } from './backup.js';
import { addMember } from '../modules/members/service.js';
import { openDatabase, type Dialect } from './connection.js';
import { migrateToLatest } from './migrate.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
/** Tables that hold no data of their own: migrations are named in the header, counts rebuilt by triggers, the probe is scratch. */
const NOT_IN_BACKUP = new Set(['schema_migrations', 'comment_counts', 'storage_probe']);
const DAY_MS = 24 * 3_600_000;
const COMPONENT = [...commentableComponentIds(loadArchitecture())].sort()[0] ?? '';

type Row = Record<string, unknown>;

/** Every table of the database as the catalog lists it, and its rows in a stable order. */
async function tablesOf(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  const result =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  return result.rows.map((row) => row.name).sort();
}

async function rowsOf(db: Kysely<Database>, table: string): Promise<string[]> {
  const result = await sql<Row>`select * from ${sql.table(table)}`.execute(db);
  // Column order may differ between engines; sorted keys make a row's text independent of it.
  return result.rows.map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).sort(([a], [b]) => a.localeCompare(b))))).sort();
}

/** The whole content of a database, table by table; applied_at of the migrations is the restore's own. */
async function contentOf(location: DatabaseLocation): Promise<Record<string, string[]>> {
  const handle = openDatabase({ ...location, poolSize: 1 });
  try {
    const content: Record<string, string[]> = {};
    for (const table of await tablesOf(handle.db, handle.dialect)) {
      content[table] =
        table === 'schema_migrations'
          ? (await handle.db.selectFrom('schema_migrations').select('name').orderBy('name').execute()).map((row) => row.name)
          : await rowsOf(handle.db, table);
    }
    return content;
  } finally {
    await handle.close();
  }
}

/** The content a restore brings back: all but the disk probe, which is not backed up. */
function withoutProbe(content: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(content).filter(([table]) => table !== 'storage_probe'));
}

/** What the health route writes to a new database as soon as a server starts on it. */
async function writeDiskProbe(location: DatabaseLocation): Promise<void> {
  const handle = openDatabase({ ...location, poolSize: 1 });
  try {
    await migrateToLatest(handle);
    await handle.db.insertInto('storage_probe').values({ id: 1, written_at: NOW }).execute();
  } finally {
    await handle.close();
  }
}

/** The tables schema.ts declares, read from its source so that a table added there is checked here too. */
async function schemaTables(): Promise<string[]> {
  const source = await readFile(path.join(import.meta.dirname, 'schema.ts'), 'utf8');
  const body = /export interface Database \{([^}]*)\}/.exec(source)?.[1] ?? '';
  return [...body.matchAll(/^\s*(\w+):/gm)].map((match) => match[1] ?? '').sort();
}

async function backupLines(file: string): Promise<unknown[]> {
  return (await readFile(file, 'utf8'))
    .trimEnd()
    .split('\n')
    .map((line): unknown => JSON.parse(line));
}

function tableNamesIn(lines: unknown[]): string[] {
  return lines.flatMap((line) => (typeof line === 'object' && line !== null && 'table' in line && typeof line.table === 'string' ? [line.table] : [])).sort();
}

/** `npm run admin -- …` on the given database, in a process of its own. */
function adminCli(location: DatabaseLocation, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../admin-cli.ts'), ...args], {
      env: { PATH: process.env.PATH, DATA_DIR: location.dataDir, ...(location.databaseUrl === undefined ? {} : { DATABASE_URL: location.databaseUrl }) },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

/** A backup with its header changed and its checksum made to match, as a newer version would write it. */
async function rewrittenHeader(file: string, target: string, change: (header: Record<string, unknown>) => Record<string, unknown>) {
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
  const header = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
  const end = JSON.parse(lines.at(-1) ?? '{}') as Record<string, unknown>;
  const body = [JSON.stringify(change(header)), ...lines.slice(1, -1)].map((line) => `${line}\n`).join('');
  await writeFile(target, `${body}${JSON.stringify({ ...end, sha256: createHash('sha256').update(body).digest('hex') })}\n`, { mode: 0o600 });
}

/**
 * Rows in every table: the demo review, members signed in through the app (PIN hashes, sessions,
 * throttles, audit entries), and for what the app makes only after long use (AI outputs, suggestion
 * rounds, self-test runs, rolled-up activity, locks, error reports) rows written as the app would.
 * A table this list does not fill stays empty and fails the first test below.
 */
async function fillEveryTable(app: App): Promise<SessionCookies> {
  const { db } = app.database;
  await seedDemo(db, { now: NOW });
  const tester = await signInAs(app, 'Bea Backup');
  await signInAs(app, 'Rhys Restore');
  const member = await db.selectFrom('members').select(['id', 'full_name']).where('full_name', '=', 'Bea Backup').executeTakeFirstOrThrow();
  const firstComment = await db.selectFrom('comments').select('id').orderBy('id').executeTakeFirstOrThrow();
  // Text that must survive JSON and both engines unchanged: quotes, a newline, a backslash, emoji.
  const posted = await apiCall(app, 'POST', routes.comments.create.path, tester, {
    componentId: COMPONENT,
    content: 'Quote "this", a back\\slash,\nand a second line with ✓ and 🚀',
  });
  expect(posted.statusCode).toBe(201);
  await apiCall(app, 'POST', buildPath(routes.comments.vote.path, { id: firstComment.id }), tester, { voteType: 'thumbs_down' });

  const fillers: [string, () => Promise<unknown>][] = [
    ['device_tokens', () => db.insertInto('device_tokens').values({ token_hash: 'd'.repeat(64), member_id: member.id, created_at: NOW, expires_at: NOW + 30 * DAY_MS }).execute()],
    [
      'enrollment_tokens',
      async () => {
        const withoutLink = await db
          .selectFrom('members')
          .select('id')
          .where('pin_hash', 'is', null)
          .where('id', 'not in', db.selectFrom('enrollment_tokens').select('member_id'))
          .orderBy('id')
          .executeTakeFirstOrThrow();
        await db.insertInto('enrollment_tokens').values({ member_id: withoutLink.id, token_hash: 'e'.repeat(64), created_at: NOW, expires_at: NOW + 3 * DAY_MS }).execute();
      },
    ],
    ['login_locks', () => db.insertInto('login_locks').values({ name_key: 'lee locked', failures: 5, lock_count: 1, locked_until: NOW + 900_000, updated_at: NOW }).execute()],
    [
      'pin_reset_requests',
      () =>
        db
          .insertInto('pin_reset_requests')
          .values([
            { member_id: 2, member_name: 'Second Member', requested_at: NOW - DAY_MS, status: 'resolved', resolved_at: NOW, resolved_by: 'Avery Admin' },
            { member_id: 3, member_name: 'Third Member', requested_at: NOW, status: 'pending', resolved_at: null, resolved_by: null },
          ])
          .execute(),
    ],
    [
      'ai_prompts',
      () =>
        db
          .insertInto('ai_prompts')
          .values({ name: 'narrative-summary', prompt: 'Older prompt: {suggestionsText}', description: null, is_active: 0, created_by: 'Avery Admin', created_at: NOW - DAY_MS })
          .execute(),
    ],
    [
      'ai_outputs',
      () =>
        db
          .insertInto('ai_outputs')
          .values({ kind: 'summary', scope: COMPONENT, input_hash: 'f'.repeat(64), output: JSON.stringify({ themes: [{ label: 'Severity', commentIds: [1, 2] }] }), provider: 'local', model: 'built-in', prompt_version: 'v3', created_at: NOW })
          .execute(),
    ],
    [
      'suggestion_generations',
      () =>
        db
          .insertInto('suggestion_generations')
          .values([
            { status: 'done', started_at: NOW - 60_000, finished_at: NOW, requested_by: 'Bea Backup', comment_count: 252, created: 2, kept: 0, archived: 0, generated_by: JSON.stringify({ provider: 'local' }), fallback: 0, notice: null },
            { status: 'failed', started_at: NOW - 120_000, finished_at: NOW - 100_000, requested_by: 'Bea Backup', comment_count: 0, created: 0, kept: 0, archived: 0, generated_by: null, fallback: 1, notice: 'The model did not answer' },
          ])
          .execute(),
    ],
    [
      'suggestions',
      async () => {
        const generation = await db.selectFrom('suggestion_generations').select('id').where('status', '=', 'done').executeTakeFirstOrThrow();
        const base = { recommendation_type: 'content' as const, components: JSON.stringify([COMPONENT]), member_initials: 'BB', sources: JSON.stringify([1, 2]), generation_id: generation.id, created_at: NOW, updated_at: NOW };
        await db
          .insertInto('suggestions')
          .values([
            {
              ...base,
              suggestion: 'Page the on-call engineer only for P1',
              status: 'active',
              archived_at: null,
              rank: 1,
              review_status: 'accepted',
              status_by_name: 'Avery Admin',
              status_at: NOW,
              owner_member_id: member.id,
              owner_name: member.full_name,
              due_date: '2026-12-31',
            },
            { ...base, suggestion: 'Archive the old runbook', recommendation_type: 'structural', status: 'archived', archived_at: NOW, rank: 2, review_status: 'open' },
          ])
          .execute();
      },
    ],
    [
      'suggestion_votes',
      async () => {
        const suggestion = await db.selectFrom('suggestions').select('id').orderBy('id').executeTakeFirstOrThrow();
        await db.insertInto('suggestion_votes').values({ suggestion_id: suggestion.id, member_id: member.id, member_name: member.full_name, vote_type: 'thumbs_up', created_at: NOW }).execute();
      },
    ],
    [
      'component_decisions',
      () =>
        db
          .insertInto('component_decisions')
          .values({
            component_id: COMPONENT,
            outcome: 'accepted_with_changes',
            rationale: 'Accepted once paging is P1 only',
            comment_ids: JSON.stringify([1]),
            suggestion_ids: '[]',
            decided_by_name: 'Avery Admin',
            created_at: NOW,
          })
          .execute(),
    ],
    [
      'qa_runs',
      () => db.insertInto('qa_runs').values({ status: 'done', run_by: 'Avery Admin', started_at: NOW - 5_000, finished_at: NOW, passed: 1, failed: 1, total_suites: 1, completed_suites: 1, current_suite: null, heartbeat_at: NOW }).execute(),
    ],
    [
      'qa_results',
      async () => {
        const run = await db.selectFrom('qa_runs').select('id').executeTakeFirstOrThrow();
        await db
          .insertInto('qa_results')
          .values([
            { run_id: run.id, position: 1, test_name: 'signs in', test_suite: 'auth', status: 'passed', duration_ms: 12, run_by: 'Avery Admin', reason: null },
            { run_id: run.id, position: 2, test_name: 'posts', test_suite: 'comments', status: 'failed', duration_ms: 30, run_by: 'Avery Admin', reason: 'answered 500' },
          ])
          .execute();
      },
    ],
    [
      'activity_log',
      () =>
        db
          .insertInto('activity_log')
          .values([
            { member_id: member.id, activity_type: 'page_view', details: JSON.stringify({ page: '/review' }), created_at: NOW },
            { member_id: member.id, activity_type: 'component_view', details: null, created_at: NOW + 1 },
          ])
          .execute(),
    ],
    ['activity_time', () => db.insertInto('activity_time').values({ member_id: member.id, day: Math.floor(NOW / DAY_MS), active_seconds: 1_234 }).execute()],
    ['activity_daily', () => db.insertInto('activity_daily').values({ member_id: 1, day: Math.floor(NOW / DAY_MS) - 200, activity_type: 'page_view', entries: 17 }).execute()],
    ['activity_clock', () => db.insertInto('activity_clock').values({ member_id: member.id, counted_until: NOW, last_credit: 60 }).execute()],
    [
      'error_logs',
      () =>
        db
          .insertInto('error_logs')
          .values({ error_type: 'TypeError', message: 'x is undefined', stack: 'at a (b.js:1)', severity: 'error', source: 'client', user_agent: 'Firefox', url: '/review', member_name: 'Bea Backup', ip: '127.0.0.1', created_at: NOW, resolved: 1, resolved_at: NOW + 1, resolved_by: 'Avery Admin', group_key: 'a'.repeat(64), occurrences: 3, last_seen_at: NOW + 1 })
          .execute(),
    ],
    [
      'idempotency_keys',
      () => db.insertInto('idempotency_keys').values({ member_id: member.id, idempotency_key: 'key-1', request_hash: 'b'.repeat(64), status_code: 201, response_body: '{"id":1}', created_at: NOW }).execute(),
    ],
    ['storage_probe', () => db.insertInto('storage_probe').values({ id: 1, written_at: NOW }).onConflict((conflict) => conflict.column('id').doNothing()).execute()],
  ];
  for (const [, fill] of fillers) await fill();
  return tester;
}

describe('backup and restore', { timeout: 180_000 }, () => {
  let source: TestApp;
  let location: DatabaseLocation;
  let tester: SessionCookies;
  let workDir: string;
  const fresh: TestDatabase[] = [];
  const freshDatabase = async () => {
    const database = await createTestDatabase();
    fresh.push(database);
    return database;
  };

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'biggy-backup-'));
    source = await createTestApp({ signInLimitPerMinute: 1_000, commentLimitPerMinute: 100_000 });
    location = { dataDir: source.database.dataDir, databaseUrl: source.database.databaseUrl };
    tester = await fillEveryTable(source.app);
  });
  afterAll(async () => {
    await source.close();
    for (const database of fresh) await database.drop();
    await rm(workDir, { recursive: true, force: true });
  });

  const postComment = (content: string) => apiCall(source.app, 'POST', routes.comments.create.path, tester, { componentId: COMPONENT, content });

  it('fills every table of the database, so the comparisons below cover them all', async () => {
    const content = await contentOf(location);
    expect(Object.entries(content).filter(([, rows]) => rows.length === 0).map(([table]) => table)).toEqual([]);
  });

  it('covers every table schema.ts declares', async () => {
    const file = path.join(workDir, 'coverage.jsonl');
    await backupDatabase(location, file);
    const lines = await backupLines(file);
    const declared = await schemaTables();
    expect(declared.length).toBeGreaterThan(10);
    // The migrations table is carried by the header: the restore applies migrations itself. The
    // comment counts are rebuilt by triggers as the comments go in; the disk probe holds no data.
    expect(tableNamesIn(lines)).toEqual(declared.filter((table) => !NOT_IN_BACKUP.has(table)));
    expect(lines[0]).toMatchObject({ format: BACKUP_FORMAT, formatVersion: 1, engine: source.database.dialect });
  });

  it('takes a consistent backup while the app serves writes, and restores it', async () => {
    const before = await source.app.database.db.selectFrom('comments').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const file = path.join(workDir, 'during-writes.jsonl');
    // The backup runs as the operator runs it, in a process of its own, while this one posts
    // comments one after another until it exits (yielding between them so its exit is heard).
    const backupDone = new AbortController();
    const writes = (async () => {
      const statuses: number[] = [];
      while (!backupDone.signal.aborted && statuses.length < 2_000) {
        statuses.push((await postComment(`Written during the backup, number ${statuses.length}`)).statusCode);
        await new Promise(setImmediate);
      }
      return statuses;
    })();
    const backup = await adminCli(location, 'backup', file).finally(() => {
      backupDone.abort();
    });
    expect(backup).toMatchObject({ code: 0, stderr: '' });
    expect(new Set(await writes)).toEqual(new Set([201]));

    const target = await freshDatabase();
    await restoreDatabase(target, file);
    const handle = openDatabase({ ...target, poolSize: 1 });
    try {
      const restored = await handle.db.selectFrom('comments').selectAll().orderBy('id').execute();
      const highest = restored.at(-1)?.id ?? 0;
      // One state of the source: everything up to some write, nothing of the writes after it.
      const sourceComments = await source.app.database.db.selectFrom('comments').selectAll().where('id', '<=', highest).orderBy('id').execute();
      expect(highest).toBeGreaterThanOrEqual(before.id);
      expect(restored).toEqual(sourceComments);
    } finally {
      await handle.close();
    }
  });

  it('restores into an empty database every table row for row, and the restored app works', async () => {
    // The newest comment is deleted: its id must not be handed out again after the restore.
    const newest = await source.app.database.db.selectFrom('comments').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect((await apiCall(source.app, 'DELETE', buildPath(routes.comments.remove.path, { id: newest.id }), tester)).statusCode).toBeLessThan(300);
    const file = path.join(workDir, 'quiet.jsonl');
    const summary = await backupDatabase(location, file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const expected = await contentOf(location);
    expect(summary.rows).toBe(Object.entries(expected).reduce((sum, [table, rows]) => sum + (NOT_IN_BACKUP.has(table) ? 0 : rows.length), 0));

    const target = await freshDatabase();
    // A server started on the new database has written its disk probe: that is no data to refuse for.
    await writeDiskProbe(target);
    const restored = await restoreDatabase(target, file);
    expect(restored.rows).toBe(summary.rows);
    // The counts equal the source's: the triggers rebuilt them from the restored comments.
    expect(withoutProbe(await contentOf(target))).toEqual(withoutProbe(expected));

    const app = await buildApp(testConfig(target, { signInLimitPerMinute: 1_000 }), { collectProcessMetrics: false });
    try {
      const cookies = await signInAs(app, 'Rhys Restore');
      const listed = await apiCall(app, 'GET', buildPath(routes.comments.withVotes.path, { componentId: COMPONENT }), cookies);
      expect(listed.statusCode).toBe(200);
      const comments = commentSchema.array().parse(listed.json());
      const inSource = await source.app.database.db.selectFrom('comments').select('id').where('component_id', '=', COMPONENT).execute();
      expect(comments.map((comment) => comment.id).sort((a, b) => a - b)).toEqual(inSource.map((row) => row.id).sort((a, b) => a - b));
      expect(comments.some((comment) => comment.content.includes('🚀'))).toBe(true);

      const posted = await apiCall(app, 'POST', routes.comments.create.path, cookies, { componentId: COMPONENT, content: 'The first comment after the restore' });
      expect(posted.statusCode).toBe(201);
      expect(commentSchema.parse(posted.json()).id).toBeGreaterThan(newest.id);
    } finally {
      await app.close();
    }
  });

  it('restores a backup of one engine into the other', { skip: process.env.TEST_DATABASE_URL === undefined || process.env.TEST_DATABASE_URL === '' }, async () => {
    const fromPostgres = path.join(workDir, 'postgres.jsonl');
    await backupDatabase(location, fromPostgres);
    const expected = withoutProbe(await contentOf(location));
    const sqliteDir = await mkdtemp(path.join(tmpdir(), 'biggy-backup-sqlite-'));
    try {
      const sqlite: DatabaseLocation = { dataDir: sqliteDir, databaseUrl: undefined };
      await restoreDatabase(sqlite, fromPostgres);
      expect(withoutProbe(await contentOf(sqlite))).toEqual(expected);
      const fromSqlite = path.join(workDir, 'sqlite.jsonl');
      await backupDatabase(sqlite, fromSqlite);
      const postgres = await freshDatabase();
      await restoreDatabase(postgres, fromSqlite);
      expect(withoutProbe(await contentOf(postgres))).toEqual(expected);
    } finally {
      await rm(sqliteDir, { recursive: true, force: true });
    }
  });

  it('restores a backup of an older version, then applies the migrations this version added since', async () => {
    const older = await freshDatabase();
    const handle = openDatabase({ ...older, poolSize: 1 });
    try {
      await migrateToLatest(handle, migrations.slice(0, -1));
      await addMember(handle.db, 'Olive Older');
    } finally {
      await handle.close();
    }
    const file = path.join(workDir, 'older.jsonl');
    await backupDatabase(older, file);
    const target = await freshDatabase();
    await restoreDatabase(target, file);
    const restored = await contentOf(target);
    expect(restored.schema_migrations).toEqual(migrations.map((migration) => migration.name).sort());
    expect(restored.members?.some((row) => row.includes('"full_name":"Olive Older"'))).toBe(true);
  });

  it('refuses a database that holds data, and leaves it as it was', async () => {
    const file = path.join(workDir, 'refused.jsonl');
    await backupDatabase(location, file);
    const before = await contentOf(location);
    await expect(restoreDatabase(location, file)).rejects.toThrow(BackupError);
    await expect(restoreDatabase(location, file)).rejects.toThrow(/^The database already holds data \(table \w+ has rows\): restore only into an empty database$/);
    expect(await contentOf(location)).toEqual(before);
  });

  it('refuses a file that is not a whole, unaltered backup of this product, before touching the database', async () => {
    const file = path.join(workDir, 'original.jsonl');
    await backupDatabase(location, file);
    const text = await readFile(file, 'utf8');
    const cases: [string, string | ((target: string) => Promise<void>), RegExp][] = [
      ['truncated.jsonl', text.slice(0, Math.floor(text.length / 2)), /is truncated/],
      ['last-line-cut.jsonl', text.slice(0, text.length - 10), /is truncated/],
      ['altered.jsonl', text.replace('Bea Backup', 'Bea Bakcup'), /is corrupt: its checksum does not match/],
      ['not-a-backup.jsonl', '{"name":"biggy-architecture-review","version":"1"}\n', /is not a backup of Biggy Architecture Review/],
      ['empty.jsonl', '', /is not a backup of Biggy Architecture Review/],
      ['newer.jsonl', (target) => rewrittenHeader(file, target, (header) => ({ ...header, migrations: [...(header.migrations as string[]), '9999-from-the-future'] })), /newer than this version knows/],
      ['newer-format.jsonl', (target) => rewrittenHeader(file, target, (header) => ({ ...header, formatVersion: 2 })), /backup format 2, newer than this version reads/],
    ];
    const target = await freshDatabase();
    for (const [name, content, message] of cases) {
      const broken = path.join(workDir, name);
      if (typeof content === 'string') await writeFile(broken, content);
      else await content(broken);
      await expect(restoreDatabase(target, broken), name).rejects.toThrow(message);
    }
    // Nothing was created or migrated: the target takes the good backup afterwards.
    expect(await contentOf(target)).toEqual({});
    await restoreDatabase(target, file);
  });
});
