import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './db/connection.js';
import { createTestDatabase, type TestDatabase } from './test/test-database.js';

const CLI = path.resolve(import.meta.dirname, 'admin-cli.ts');

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

// Each command is a fresh Node process with tsx: seconds each on a busy machine. Refusals change
// nothing, so the ones that follow each other run at once.
describe('npm run admin', { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;

  const adminOn = (target: Pick<TestDatabase, 'dataDir' | 'databaseUrl'>, ...args: string[]) =>
    new Promise<CliResult>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
        env: {
          PATH: process.env.PATH,
          DATA_DIR: target.dataDir,
          PUBLIC_URL: 'https://review.example.org/',
          ...(target.databaseUrl === undefined ? {} : { DATABASE_URL: target.databaseUrl }),
        },
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

  const admin = (...args: string[]) => adminOn(database, ...args);

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  it('adds a member once, case-insensitively, and lists it', async () => {
    const added = await admin('add-member', '  grace   hopper ', '--email', 'grace@example.com');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Added grace hopper');
    // The enrollment link is the last line, alone, built on PUBLIC_URL.
    expect(lastLine(added.stdout)).toMatch(/^https:\/\/review\.example\.org\/enroll\/[A-Za-z0-9_-]{43}$/);
    const again = await admin('add-member', 'Grace Hopper');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already a member; nothing changed');

    const listed = await admin('list-members');
    expect(listed.stdout.split('\n').filter((line) => line.startsWith('grace hopper'))).toEqual([
      'grace hopper\tmember\tno PIN yet\tactive\tgrace@example.com',
    ]);
  });

  it('sets a role and refuses unknown names and bad input with exit code 1', async () => {
    expect((await admin('set-role', 'GRACE HOPPER', 'admin')).stdout).toContain('now has the admin role');
    expect((await admin('list-members')).stdout).toContain('grace hopper\tadmin');
    const [unknown, badRole, badName, unknownCommand] = await Promise.all([
      admin('set-role', 'Nobody Here', 'admin'),
      admin('set-role', 'Grace Hopper', 'root'),
      admin('add-member', '<script>'),
      admin('frobnicate'),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No member named "Nobody Here"');
    expect(badRole.code).toBe(1);
    expect(badName.code).toBe(1);
    expect(badName.stderr).toContain('letters');
    expect(unknownCommand.code).toBe(1);
    expect(unknownCommand.stderr).toContain('Usage: npm run admin');
  });

  it("refuses to add a member under the QA user's name (QA_USER_NAME), which the self-test needs", async () => {
    const refused = await admin('add-member', 'qa test user');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is the QA user\'s name (QA_USER_NAME)');
    expect((await admin('list-members')).stdout.toLowerCase()).not.toContain('qa test user');
  });

  it('resets a PIN: clears it, ends sessions and devices, resolves pending requests', async () => {
    handle = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
    const { db } = handle;
    const member = await db.selectFrom('members').select('id').where('name_key', '=', 'grace hopper').executeTakeFirstOrThrow();
    const now = Date.now();
    await db.updateTable('members').set({ pin_hash: 'x', pin_set_at: now }).where('id', '=', member.id).execute();
    await db.insertInto('sessions').values({ token_hash: 'a'.repeat(64), member_id: member.id, created_at: now, last_seen_at: now, expires_at: now + 60_000, ip: null, user_agent: null }).execute();
    await db.insertInto('device_tokens').values({ token_hash: 'b'.repeat(64), member_id: member.id, created_at: now, expires_at: now + 60_000 }).execute();
    await db.insertInto('pin_reset_requests').values({ member_id: member.id, member_name: 'grace hopper', requested_at: now }).execute();

    await db.insertInto('login_locks').values({ name_key: 'grace hopper', failures: 0, lock_count: 1, locked_until: now + 3_600_000, updated_at: now }).execute();

    const reset = await admin('reset-pin', 'Grace Hopper');
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain('Cleared the PIN of grace hopper');
    expect(lastLine(reset.stdout)).toMatch(/^https:\/\/review\.example\.org\/enroll\/[A-Za-z0-9_-]{43}$/);
    expect(await db.selectFrom('login_locks').selectAll().where('name_key', '=', 'grace hopper').execute()).toEqual([]);

    const after = await db.selectFrom('members').select(['pin_hash']).where('id', '=', member.id).executeTakeFirstOrThrow();
    expect(after.pin_hash).toBeNull();
    expect(await db.selectFrom('sessions').select('token_hash').where('member_id', '=', member.id).execute()).toEqual([]);
    expect(await db.selectFrom('device_tokens').select('token_hash').where('member_id', '=', member.id).execute()).toEqual([]);
    const requests = await db.selectFrom('pin_reset_requests').select(['status', 'resolved_by']).where('member_id', '=', member.id).execute();
    expect(requests).toEqual([{ status: 'resolved', resolved_by: 'admin (command line)' }]);
    const audit = await db.selectFrom('audit_log').select('detail').where('event', '=', 'admin-action').execute();
    expect(audit.map((row) => row.detail)).toContain('reset-pin grace hopper');
  });

  it('issues a fresh enrollment link only to a member without a PIN, and unlocks a locked name', async () => {
    const { db } = handle;
    const first = await admin('enrollment-link', 'Grace Hopper');
    expect(first.code, first.stderr).toBe(0);
    const second = await admin('enrollment-link', 'grace hopper');
    const link = lastLine(second.stdout);
    expect(link).toMatch(/^https:\/\/review\.example\.org\/enroll\/[A-Za-z0-9_-]{43}$/);
    expect(link).not.toBe(lastLine(first.stdout));
    // One live link per member: the second replaced the first.
    const member = await db.selectFrom('members').select('id').where('name_key', '=', 'grace hopper').executeTakeFirstOrThrow();
    expect(await db.selectFrom('enrollment_tokens').select('member_id').where('member_id', '=', member.id).execute()).toHaveLength(1);

    await db.updateTable('members').set({ pin_hash: 'set' }).where('id', '=', member.id).execute();
    const [refused, unknown, unlockUnknown] = await Promise.all([
      admin('enrollment-link', 'Grace Hopper'),
      admin('enrollment-link', 'Nobody Here'),
      admin('unlock', 'Nobody Here'),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already has a PIN');
    expect(unknown.code).toBe(1);
    expect(unlockUnknown.code).toBe(1);

    const now = Date.now();
    await db.insertInto('login_locks').values({ name_key: 'grace hopper', failures: 0, lock_count: 2, locked_until: now + 3_600_000, updated_at: now }).execute();
    const unlocked = await admin('unlock', 'GRACE HOPPER');
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(unlocked.stdout).toContain('can sign in again');
    expect(await db.selectFrom('login_locks').selectAll().where('name_key', '=', 'grace hopper').execute()).toEqual([]);
  });

  it('rotates a secret in secrets.json without printing it, and a new pepper clears every PIN', async () => {
    const { readFile } = await import('node:fs/promises');
    const file = path.join(database.dataDir, 'secrets.json');
    const before = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
    const rotated = await admin('rotate-secret', 'team');
    expect(rotated.code).toBe(0);
    const after = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
    expect(after.teamPassword).not.toBe(before.teamPassword);
    expect(after.adminPassword).toBe(before.adminPassword);
    expect(rotated.stdout).not.toContain(String(after.teamPassword));

    const { db } = handle;
    await db.updateTable('members').set({ pin_hash: 'y' }).execute();
    const pepper = await admin('rotate-secret', 'pepper');
    expect(pepper.code).toBe(0);
    expect(pepper.stdout).toMatch(/cleared \d+ PIN/);
    const withPins = await db.selectFrom('members').select('id').where('pin_hash', 'is not', null).execute();
    expect(withPins).toEqual([]);
  });

  it('exports the review as Markdown, CSV and the printable HTML report to a file, and refuses a wrong format or kind', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'biggy-cli-export-'));
    try {
      const md = path.join(dir, 'review.md');
      const csv = path.join(dir, 'actions.csv');
      const html = path.join(dir, 'review.html');
      const [markdown, actions, report, noFormat, badKind] = await Promise.all([
        admin('export', '--format', 'md', '--out', md),
        admin('export', '--format', 'csv', '--kind', 'actions', '--out', csv),
        admin('export', '--format', 'html', '--out', html),
        admin('export', '--out', md),
        admin('export', '--format', 'csv', '--kind', 'votes', '--out', csv),
      ]);
      expect(markdown.code, markdown.stderr).toBe(0);
      expect(markdown.stdout).toMatch(/^Wrote the review as Markdown to .*review\.md \(\d+ bytes\)\.\n$/);
      const text = await readFile(md, 'utf8');
      expect(text).toMatch(/^# Architecture review\n/);
      expect(text).toContain('## Agentic Triage');
      expect(actions.code, actions.stderr).toBe(0);
      expect((await readFile(csv, 'utf8')).split('\r\n')[0]).toBe('id,action,components,owner,due_date,status');
      expect(report.code, report.stderr).toBe(0);
      expect(report.stdout).toMatch(/^Wrote the review as a printable HTML report to .*review\.html \(\d+ bytes\)\.\n$/);
      const page = await readFile(html, 'utf8');
      expect(page).toMatch(/^<!doctype html>\n/);
      expect(page).toContain('<h2 id="component-agentic-triage">Agentic Triage</h2>');
      expect(page).toMatch(/<\/html>\n$/);
      expect(noFormat).toMatchObject({ code: 1 });
      expect(noFormat.stderr).toContain('export needs --format md, --format csv or --format html');
      expect(badKind.stderr).toContain('--kind must be one of comments, suggestions, actions');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('backs up to a file only its owner may read, and restores it into an empty database only', { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'biggy-cli-backup-'));
    const target = await createTestDatabase();
    try {
      const file = path.join(dir, 'review.jsonl');
      const backup = await admin('backup', file);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toMatch(/^Backed up \d+ rows of \d+ tables \((sqlite|postgres), migration \d{4}-[\w-]+\) to /);
      expect(backup.stdout).toContain('mode 0600');
      expect((await stat(file)).mode & 0o777).toBe(0o600);

      const restored = await adminOn(target, 'restore', file);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toMatch(/^Restored \d+ rows of \d+ tables from the backup taken /);
      const [restoredList, sourceList] = await Promise.all([adminOn(target, 'list-members'), admin('list-members')]);
      expect(restoredList.stdout).toBe(sourceList.stdout);

      // Refusals are one line on stderr and exit code 1, without the usage text.
      const altered = path.join(dir, 'altered.jsonl');
      await writeFile(altered, (await readFile(file, 'utf8')).replace('grace hopper', 'grace hooper'));
      const [again, corrupt, withoutFile] = await Promise.all([adminOn(target, 'restore', file), adminOn(target, 'restore', altered), admin('backup')]);
      expect(again).toMatchObject({ code: 1, stdout: '' });
      expect(again.stderr).toMatch(/^The database already holds data \(table \w+ has rows\): restore only into an empty database\n$/);
      expect(corrupt).toMatchObject({ code: 1, stderr: 'altered.jsonl is corrupt: its checksum does not match its content\n' });
      expect(withoutFile.code).toBe(1);
      expect(withoutFile.stderr).toContain('backup needs the file to write');
    } finally {
      await target.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
