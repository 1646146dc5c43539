import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../scripts/chromium.js';
import type { Database } from '../src/server/db/schema.js';
import { hashPin } from '../src/server/modules/auth/secrets.js';
import { addMember } from '../src/server/modules/members/service.js';
import { issueEnrollmentLink } from '../src/server/modules/enrollment/service.js';
import { createTestDatabase, type TestDatabase } from '../src/server/test/test-database.js';
import { nameKey } from '../src/common/names.js';
import { closeToasts, toasts } from './toasts.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER_ENTRY = path.join(ROOT, 'dist/server/main.js');

export const E2E_SECRETS = {
  TEAM_PASSWORD: 'e2e-team-password',
  ADMIN_PASSWORD: 'e2e-admin-password',
  QA_PIN: '6183',
  PIN_PEPPER: 'e2e-pepper-0123456789abcdef',
} as const;

export interface RunningServer {
  baseUrl: string;
  database: TestDatabase;
  /** Direct access to the server's database for assertions. */
  openDb(): Kysely<Database>;
  output(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/** Starts the built server (`npm run build` first) on a free port with a fresh database. */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(SERVER_ENTRY)) throw new Error('dist/server/main.js is missing: run `npm run build` before the browser tests');
  const database = await createTestDatabase();
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: database.dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_NAME: 'Avery Admin',
    ...E2E_SECRETS,
    // Every browser test signs in from 127.0.0.1; the per-IP limit itself is covered by the API tests.
    SIGN_IN_LIMIT_PER_MINUTE: '1000',
    ...(database.databaseUrl === undefined ? {} : { DATABASE_URL: database.databaseUrl }),
    ...extraEnv,
  };
  const child: ChildProcess = spawn(process.execPath, [SERVER_ENTRY], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy within 20 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    baseUrl,
    database,
    openDb() {
      return database.databaseUrl === undefined
        ? new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(path.join(database.dataDir, 'app.db')) }) })
        : new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.databaseUrl, max: 2 }) }) });
    },
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await database.drop();
    },
  };
}

/**
 * After a test ends sessions in the database behind the server's back (as an idle limit would):
 * waits until the server refuses the page's session. It may answer a session it looked up within
 * the last second from memory, so the state to wait for is the refusal, not the deleted row.
 */
export async function waitUntilSessionRefused(page: Page, server: RunningServer): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const status = (await page.request.get(`${server.baseUrl}/api/user`)).status();
    if (status === 401) return;
    if (Date.now() > deadline) throw new Error(`the server still answers the session (${status}) 5 s after its rows were deleted`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Chromium as scripts/chromium.ts picks it: CHROMIUM_PATH, else /usr/bin/chromium, else the bundled copy. */
export async function launchBrowser(): Promise<Browser> {
  return launchChromium();
}

/** A page that fails the test on any console error unless the test expects it. */
/** A page in a context of its own, collecting console errors; `mobile` emulates a touch phone. */
export async function newPage(
  browser: Browser,
  options: { viewport?: { width: number; height: number }; mobile?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
  const mobile = options.mobile ?? false;
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 }, isMobile: mobile, hasTouch: mobile });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  return { context, page, consoleErrors };
}

export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');

export interface SeededMember {
  id: number;
  fullName: string;
}

/**
 * Adds a member through the server's own service, as `npm run admin -- add-member` does, and
 * optionally gives them a PIN hashed with the server's pepper (a member who already signed in once).
 */
export async function seedMember(
  server: RunningServer,
  fullName: string,
  options: { pin?: string; role?: 'member' | 'admin'; email?: string } = {},
): Promise<SeededMember> {
  const db = server.openDb();
  try {
    const added = await addMember(db, fullName, { role: options.role ?? 'member', email: options.email ?? null });
    if (options.pin !== undefined) {
      const pinHash = await hashPin(options.pin, E2E_SECRETS.PIN_PEPPER);
      await db.updateTable('members').set({ pin_hash: pinHash, pin_set_at: Date.now() }).where('name_key', '=', nameKey(fullName)).execute();
    }
    const row = await db.selectFrom('members').select(['id', 'full_name']).where('name_key', '=', nameKey(fullName)).executeTakeFirstOrThrow();
    return { id: row.id, fullName: added.fullName };
  } finally {
    await db.destroy();
  }
}

/** Issues `fullName` an enrollment link, as `npm run admin -- enrollment-link` does. */
export async function enrollmentLink(server: RunningServer, fullName: string): Promise<string> {
  const db = server.openDb();
  try {
    const member = await db.selectFrom('members').select('id').where('name_key', '=', nameKey(fullName)).executeTakeFirstOrThrow();
    return (await issueEnrollmentLink(db, member.id, server.baseUrl)).url;
  } finally {
    await db.destroy();
  }
}

async function hasPin(server: RunningServer, fullName: string): Promise<boolean> {
  const db = server.openDb();
  try {
    const member = await db.selectFrom('members').select('pin_hash').where('name_key', '=', nameKey(fullName)).executeTakeFirst();
    return member?.pin_hash != null;
  } finally {
    await db.destroy();
  }
}

export interface SignInResult {
  /** The success toast the sign-in showed ('Welcome!' or 'PIN Setup Complete!'), closed afterwards. */
  toastTitle: string;
  toastText: string;
}

/**
 * Signs in through the UI like a member: the team login with password, name and PIN, or, when the
 * member has no PIN yet, their enrollment link and the 'Create Your PIN' step with that PIN. Opens
 * `path` first unless the page is already on the app. A remembered device's 'Welcome Back' is left
 * with 'Back'. The success toast is closed so that tests start from a quiet page.
 */
export async function signIn(page: Page, server: RunningServer, { name, pin, path: route = '/' }: { name: string; pin: string; path?: string }): Promise<SignInResult> {
  const teamLogin = page.getByRole('heading', { level: 1, name: 'Team Sign In' });
  const welcomeBack = page.getByRole('heading', { level: 1, name: 'Welcome Back' });
  const pinSetup = page.getByRole('heading', { level: 1, name: 'Create Your PIN' });
  const enrolling = !(await hasPin(server, name));
  if (enrolling) {
    // The link lands on '/'; the page the test asked for is opened once the member is signed in.
    await page.goto(await enrollmentLink(server, name));
    await pinSetup.waitFor();
    await page.getByLabel('Team password', { exact: true }).fill(E2E_SECRETS.TEAM_PASSWORD);
    await page.getByLabel('New PIN', { exact: true }).fill(pin);
    const [setup] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/api/setup-pin'),
      page.getByRole('button', { name: 'Create PIN and Sign In' }).click(),
    ]);
    if (setup.status() !== 200) throw new Error(`PIN setup for ${name} failed: ${setup.status()} ${await setup.text()}`);
  } else {
    if (!page.url().startsWith(server.baseUrl)) await page.goto(`${server.baseUrl}${route}`);
    await teamLogin.or(welcomeBack).waitFor();
    if (await welcomeBack.isVisible()) await page.getByRole('button', { name: 'Back', exact: true }).click();

    await page.getByLabel('Team password', { exact: true }).fill(E2E_SECRETS.TEAM_PASSWORD);
    await page.getByRole('combobox', { name: 'Name' }).fill(name);
    await page.getByLabel('PIN', { exact: true }).fill(pin);
    const [login] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/api/login'),
      page.getByRole('button', { name: 'Sign In', exact: true }).click(),
    ]);
    if (login.status() !== 200) throw new Error(`sign-in as ${name} failed: ${login.status()} ${await login.text()}`);
  }
  await teamLogin.or(pinSetup).waitFor({ state: 'detached' });

  const toast = toasts(page).first();
  await toast.waitFor();
  const [toastTitle, toastText] = await Promise.all([toast.locator('> div > :first-child').innerText(), toast.locator('> div > :nth-child(2)').innerText()]);
  await closeToasts(page);
  if (enrolling && route !== '/') await page.goto(`${server.baseUrl}${route}`);
  return { toastTitle, toastText };
}


/**
 * Opens an enrollment link the test was handed (by the admin panel, say) and creates the PIN on
 * 'Create Your PIN', as a member who received the link does. Answers the name the form was
 * prefilled with and the success toast, which is closed afterwards.
 */
export async function enrollWithLink(page: Page, url: string, pin: string): Promise<SignInResult & { name: string }> {
  const pinSetup = page.getByRole('heading', { level: 1, name: 'Create Your PIN' });
  await page.goto(url);
  await pinSetup.waitFor();
  const name = await page.getByRole('combobox', { name: 'Name' }).inputValue();
  await page.getByLabel('Team password', { exact: true }).fill(E2E_SECRETS.TEAM_PASSWORD);
  await page.getByLabel('New PIN', { exact: true }).fill(pin);
  const [setup] = await Promise.all([
    page.waitForResponse((response) => new URL(response.url()).pathname === '/api/setup-pin'),
    page.getByRole('button', { name: 'Create PIN and Sign In' }).click(),
  ]);
  if (setup.status() !== 200) throw new Error(`PIN setup through ${url} failed: ${setup.status()} ${await setup.text()}`);
  await pinSetup.waitFor({ state: 'detached' });

  const toast = toasts(page).first();
  await toast.waitFor();
  const [toastTitle, toastText] = await Promise.all([toast.locator('> div > :first-child').innerText(), toast.locator('> div > :nth-child(2)').innerText()]);
  await closeToasts(page);
  return { toastTitle, toastText, name };
}
