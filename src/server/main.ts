import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from './app.js';
import { describeDatabaseUrl, waitForDatabase } from './db/connection.js';
import { DataDirLockedError, lockDataDir } from './db/data-dir-lock.js';
import { databaseFaultOf } from './db/faults.js';
import { ConfigError, loadConfig, type AppConfig, type Secrets } from './config.js';
import { LISTEN_BACKLOG } from './http/connection-limits.js';
import type { EnrollmentLink } from './modules/enrollment/service.js';
import { ROUTES } from '../common/routes.js';


const here = path.dirname(fileURLToPath(import.meta.url));
// dist/server/main.js serves dist/client, the Vite build output.
const clientDir = path.resolve(here, '../client');

async function main() {
  let loaded: Awaited<ReturnType<typeof loadConfig>>;
  try {
    loaded = await loadConfig(process.env, existsSync(clientDir) ? clientDir : undefined);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { config } = loaded;
  let releaseDataDir: () => void = () => undefined;
  if (config.databaseUrl === undefined) {
    try {
      releaseDataDir = lockDataDir(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirLockedError) exitWith(error.message);
      throw error;
    }
  } else {
    await waitForDatabaseOrExit(config.databaseUrl, config.database.startupWaitMs);
  }
  // Log lines are written asynchronously: under load the lines of many requests go out in one
  // write instead of one blocking write each, and an idle server still writes a line at once.
  // pino flushes what is pending when the process exits (ADR 0008).
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(config, { logDestination: pino.destination({ dest: 1, sync: false }) });
  } catch (error) {
    // The database went away between the wait and the migrations: the same one line, not a stack.
    if (config.databaseUrl !== undefined && databaseFaultOf(error) === 'unavailable') exitWith(unreachableLine(config.databaseUrl, error));
    throw error;
  }

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: health answers 503, no new connections, finishing requests in flight');
    app.drain.begin();
    const deadline = setTimeout(() => {
      app.log.error(`shutdown took longer than ${config.drainMs / 1000} s; exiting anyway`);
      releaseDataDir();
      process.exit(1);
    }, config.drainMs);
    deadline.unref();
    app.close().then(
      () => {
        app.log.info('shut down cleanly');
        releaseDataDir();
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        releaseDataDir();
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  if (config.clientDir === undefined) {
    app.log.warn('client bundle not found (run `npm run build`); serving the API only');
  }
  if (loaded.generatedSecrets.length > 0) printFirstStartInstructions(config, loaded.generatedSecrets, loaded.secretsFile, app.adminEnrollmentLink);
  else if (app.adminEnrollmentLink !== undefined) process.stdout.write(adminLinkLines(config, app.adminEnrollmentLink).join('\n') + '\n');
}

function exitWith(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

function unreachableLine(databaseUrl: string, error: unknown): string {
  const reason = error instanceof Error && error.message !== '' ? error.message : String(error);
  return `Cannot reach the database that DATABASE_URL names (${describeDatabaseUrl(databaseUrl)}): ${reason}. Check that PostgreSQL is running and DATABASE_URL is right.`;
}

async function waitForDatabaseOrExit(databaseUrl: string, waitMs: number): Promise<void> {
  let told = false;
  try {
    await waitForDatabase(databaseUrl, waitMs, () => {
      if (told) return;
      told = true;
      process.stderr.write(`Waiting up to ${Math.round(waitMs / 1000)} s for the database at ${describeDatabaseUrl(databaseUrl)}…\n`);
    });
  } catch (error) {
    exitWith(unreachableLine(databaseUrl, error));
  }
}

/**
 * Only the admin can hand out enrollment links, so the admin's own first link comes from the start
 * that bootstrapped them. It is printed, never logged: it is a credential, used once.
 */
function adminLinkLines(config: AppConfig, link: EnrollmentLink): string[] {
  return [
    `Admin: ${config.adminName ?? ''} has no PIN yet. Open this enrollment link (it works once, until ${new Date(link.expiresAt).toISOString()}) to create it:`,
    link.url,
    'A new link any time: npm run admin -- enrollment-link "Full Name"',
  ];
}

/**
 * Printed once, on the start that generated secrets. It says where they are, not what they are:
 * stdout is often collected into logs, and no secret may appear in a log line.
 */
function printFirstStartInstructions(config: AppConfig, generated: (keyof Secrets)[], file: string, adminLink: EnrollmentLink | undefined) {
  const address = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}${ROUTES.home}`;
  const lines = [
    '',
    'First start: generated ' + generated.join(', ') + '.',
    `They are stored in ${file} (readable by this user only); set TEAM_PASSWORD, ADMIN_PASSWORD, QA_PIN or PIN_PEPPER to choose your own.`,
    `The app is at ${address}. Members sign in with the team password from that file (teamPassword), their full name and their PIN.`,
    'Only members can sign in. Add them with: npm run admin -- add-member "Full Name", which prints the enrollment link with which they create their PIN.',
    config.adminName === undefined
      ? 'No admin yet: set ADMIN_NAME to the full name of the member who administers the review.'
      : `Admin: ${config.adminName}; admin actions also ask for adminPassword from that file.`,
    ...(adminLink === undefined ? [] : adminLinkLines(config, adminLink)),
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

await main();
