import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { EXPORT_CSV_KINDS } from '../common/api/export.js';
import { nameKey } from '../common/names.js';
import { loadArchitecture, reviewedComponents } from './content/validate.js';
import { csvExport, markdownExport } from './modules/export/export.js';
import { htmlExport } from './modules/export/html.js';
import { ConfigError, parseEnv, publicUrlOf, resolveSecrets, rotateStoredSecret, type RotatableSecret } from './config.js';
import { backupDatabase, BackupError, restoreDatabase, type DatabaseLocation } from './db/backup.js';
import { openDatabase, type DatabaseHandle } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { AppError } from './errors.js';
import { audit } from './modules/auth/audit.js';
import { notifySessionsEnded, type SessionEndNotice } from './event-bus/event-bus.js';
import type { EnrollmentLink } from './modules/enrollment/service.js';
import { listMembers } from './modules/members/repo.js';
import { addMember, assignRole, auditLinkRevoked, forgetAllPins, newEnrollmentLink, refuseQaUserName, resetMemberPin, unlockMember } from './modules/members/service.js';

const USAGE = `Usage: npm run admin -- <command>

  add-member "Full Name" [--email someone@example.com] [--admin]
                                   add a member and print their enrollment link
  list-members
  enrollment-link "Full Name"      a fresh enrollment link for a member without a PIN (last line)
  reset-pin "Full Name"            clear the PIN and print the enrollment link for a new one
  unlock "Full Name"               lift the lock that wrong PINs put on a name
  set-role "Full Name" member|admin
  rotate-secret team|admin|pepper  replace a secret in DATA_DIR/secrets.json (restart the server after)
  export --format md|csv|html [--kind comments|suggestions|actions] --out FILE
                                   write the review as Markdown, one CSV (comments by default),
                                   or the printable HTML report
  backup FILE                      write a consistent backup of the database to FILE (mode 0600)
  restore FILE                     load a backup into an empty database`;

const CLI_ACTOR = 'admin (command line)';

async function run(argv: string[]): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      admin: { type: 'boolean' },
      format: { type: 'string' },
      kind: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (command === undefined || values.help === true) return USAGE;

  const env = parseEnv(process.env);
  if (command === 'rotate-secret') return rotateSecret(env, rest[0]);
  const location: DatabaseLocation = { dataDir: path.resolve(env.DATA_DIR), databaseUrl: env.DATABASE_URL };
  if (command === 'backup') return backup(location, rest[0]);
  if (command === 'restore') return restore(location, rest[0]);

  // Resolving secrets also creates them on a fresh data directory, as the server would.
  await resolveSecrets(env, path.resolve(env.DATA_DIR));
  const database = openDatabase({ dataDir: path.resolve(env.DATA_DIR), databaseUrl: env.DATABASE_URL, poolSize: 1 });
  try {
    await migrateToLatest(database);
    return await runOnDatabase(database, command, rest, values);
  } finally {
    await database.close();
  }
}

async function runOnDatabase(
  database: DatabaseHandle,
  command: string,
  rest: string[],
  values: { email?: string; admin?: boolean; format?: string; kind?: string; out?: string },
): Promise<string> {
  const { db } = database;
  const name = rest[0];
  const env = parseEnv(process.env);
  const publicUrl = publicUrlOf(env);
  switch (command) {
    case 'add-member': {
      if (name === undefined) throw new UsageError('add-member needs the member\'s full name in quotes');
      refuseQaUserName(name, env.QA_USER_NAME);
      const result = await addMember(db, name, { email: values.email ?? null, role: values.admin === true ? 'admin' : 'member' });
      await audit(db, { event: 'admin-action', outcome: result.created ? 'success' : 'info', actorName: CLI_ACTOR, ip: 'cli', detail: `add-member ${result.fullName}` });
      if (!result.created) return `${result.fullName} is already a member; nothing changed.`;
      const { link } = await newEnrollmentLink(db, result.fullName, publicUrl);
      return [`Added ${result.fullName}${values.admin === true ? ' as admin' : ''}.`, ...linkLines(result.fullName, link)].join('\n');
    }
    case 'enrollment-link': {
      if (name === undefined) throw new UsageError('enrollment-link needs the member\'s full name in quotes');
      const { member, link } = await newEnrollmentLink(db, name, publicUrl);
      await audit(db, { event: 'admin-action', outcome: 'success', actorName: CLI_ACTOR, ip: 'cli', detail: `enrollment-link ${member.full_name}` });
      return [`A new enrollment link for ${member.full_name}; any earlier link no longer works.`, ...linkLines(member.full_name, link)].join('\n');
    }
    case 'unlock': {
      if (name === undefined) throw new UsageError('unlock needs the member\'s full name in quotes');
      const member = await unlockMember(db, name);
      if (member === undefined) throw new UsageError(`No member named "${name}"`);
      await audit(db, { event: 'admin-action', outcome: 'success', actorName: CLI_ACTOR, ip: 'cli', detail: `unlock ${member.full_name}` });
      return `${member.full_name} can sign in again; their failed attempts are forgotten.`;
    }
    case 'list-members': {
      const members = await listMembers(db);
      if (members.length === 0) return 'No members yet. Add one with: npm run admin -- add-member "Full Name"';
      const rows = members.map((member) =>
        [member.full_name, member.role, member.pin_hash === null ? 'no PIN yet' : 'PIN set', member.active === 1 ? 'active' : 'inactive', member.email ?? '']
          .join('\t')
          .trimEnd(),
      );
      return ['name\trole\tPIN\tstatus\te-mail', ...rows].join('\n');
    }
    case 'reset-pin': {
      if (name === undefined) throw new UsageError('reset-pin needs the member\'s full name in quotes');
      // On PostgreSQL the running servers hear of the ended sessions at once; on SQLite their streams notice within a heartbeat.
      const notifyEnded = (notice: SessionEndNotice) => (database.dialect === 'postgres' ? notifySessionsEnded(db, notice) : Promise.resolve());
      const reset = await resetMemberPin(db, name, CLI_ACTOR, { publicUrl, notifyEnded });
      if (reset === undefined) throw new UsageError(`No member named "${name}"`);
      const { member, link } = reset;
      await audit(db, { event: 'admin-action', outcome: 'success', actorName: CLI_ACTOR, ip: 'cli', detail: `reset-pin ${member.full_name}` });
      return [`Cleared the PIN of ${member.full_name}, ended their sessions, forgot their devices and lifted any lock.`, ...linkLines(member.full_name, link)].join('\n');
    }
    case 'set-role': {
      const role = rest[1];
      if (name === undefined || (role !== 'member' && role !== 'admin')) throw new UsageError('set-role needs a full name and member or admin');
      const assigned = await assignRole(db, nameKey(name), role);
      if (assigned === undefined) throw new UsageError(`No member named "${name}"`);
      await audit(db, { event: 'admin-action', outcome: 'success', actorName: CLI_ACTOR, ip: 'cli', detail: `set-role ${name} ${role}` });
      if (!assigned.linkRevoked) return `${name} now has the ${role} role.`;
      await auditLinkRevoked(db, assigned.member.full_name, CLI_ACTOR, 'cli');
      return [
        `${name} now has the ${role} role.`,
        `Their unused enrollment link no longer works; print a new one with: npm run admin -- enrollment-link "${assigned.member.full_name}"`,
      ].join('\n');
    }
    case 'export':
      return exportReview(db, values);
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

async function exportReview(db: DatabaseHandle['db'], values: { format?: string; kind?: string; out?: string }): Promise<string> {
  const { format, out } = values;
  if (format !== 'md' && format !== 'csv' && format !== 'html') throw new UsageError('export needs --format md, --format csv or --format html');
  if (out === undefined || out === '') throw new UsageError('export needs --out FILE');
  const kind = EXPORT_CSV_KINDS.find((value) => value === (values.kind ?? 'comments'));
  if (kind === undefined) throw new UsageError(`--kind must be one of ${EXPORT_CSV_KINDS.join(', ')}`);
  const components = reviewedComponents(loadArchitecture());
  const formats = {
    md: { name: 'Markdown', write: () => markdownExport(db, components) },
    csv: { name: 'CSV', write: () => csvExport(db, kind, components) },
    html: { name: 'a printable HTML report', write: () => htmlExport(db, components) },
  };
  await pipeline(Readable.from(formats[format].write()), createWriteStream(out));
  await audit(db, { event: 'admin-action', outcome: 'success', actorName: CLI_ACTOR, ip: 'cli', detail: `export ${format}${format === 'csv' ? ` ${kind}` : ''}` });
  const { size } = await stat(out);
  return `Wrote the review${format === 'csv' ? `'s ${kind}` : ''} as ${formats[format].name} to ${path.resolve(out)} (${size} bytes).`;
}

async function rotateSecret(env: ReturnType<typeof parseEnv>, which: string | undefined): Promise<string> {
  const names: Record<string, RotatableSecret> = { team: 'teamPassword', admin: 'adminPassword', pepper: 'pinPepper' };
  const secret = which === undefined ? undefined : names[which];
  if (secret === undefined) throw new UsageError('rotate-secret needs team, admin or pepper');
  const { file, overriddenByEnv } = await rotateStoredSecret(env, secret);
  const lines = [`Stored a new ${secret} in ${file}. Restart the server for it to take effect.`];
  if (overriddenByEnv) lines.push(`Note: the environment sets this secret, and the environment wins; change it there too.`);
  if (secret === 'pinPepper' && !overriddenByEnv) {
    const database = openDatabase({ dataDir: path.resolve(env.DATA_DIR), databaseUrl: env.DATABASE_URL, poolSize: 1 });
    try {
      await migrateToLatest(database);
      const cleared = await forgetAllPins(database.db);
      await audit(database.db, { event: 'admin-action', outcome: 'success', actorName: CLI_ACTOR, ip: 'cli', detail: 'rotate-secret pepper' });
      lines.push(`A new pepper invalidates every PIN: cleared ${cleared} PIN(s) and signed everyone out; members create new PINs at their next sign-in.`);
    } finally {
      await database.close();
    }
  }
  return lines.join('\n');
}

async function backup(location: DatabaseLocation, file: string | undefined): Promise<string> {
  if (file === undefined) throw new UsageError('backup needs the file to write');
  const summary = await backupDatabase(location, file);
  return [
    `Backed up ${summary.rows} rows of ${Object.keys(summary.tables).length} tables (${summary.engine}, migration ${summary.migration}) to ${path.resolve(file)}.`,
    'The file holds PIN, session and device-token hashes: it is readable by you alone (mode 0600); keep it that way.',
  ].join('\n');
}

async function restore(location: DatabaseLocation, file: string | undefined): Promise<string> {
  if (file === undefined) throw new UsageError('restore needs the backup file to read');
  const summary = await restoreDatabase(location, file);
  return [
    `Restored ${summary.rows} rows of ${Object.keys(summary.tables).length} tables from the backup taken ${summary.createdAt} (${summary.engine}, migration ${summary.migration}).`,
    'PINs work only with the PIN pepper they were made with: give this server the original PIN_PEPPER (or its secrets.json) before it starts.',
  ].join('\n');
}

/** The link goes last, alone on its line, so scripts can take it with `tail -n 1`. */
function linkLines(fullName: string, link: EnrollmentLink): string[] {
  return [
    `Send ${fullName} this enrollment link (it works once, until ${new Date(link.expiresAt).toISOString()}); opening it lets them create their PIN:`,
    link.url,
  ];
}

class UsageError extends Error {}

try {
  process.stdout.write(`${await run(process.argv.slice(2))}\n`);
} catch (error) {
  const known = error instanceof UsageError || error instanceof ConfigError || error instanceof AppError || error instanceof BackupError;
  process.stderr.write(`${known ? error.message : String(error)}\n`);
  if (error instanceof UsageError) process.stderr.write(`\n${USAGE}\n`);
  process.exitCode = 1;
}
