import path from 'node:path';
import { parseArgs } from 'node:util';
import { nameKey } from '../shared/names.js';
import { ConfigError, parseEnv, resolveSecrets, rotateStoredSecret, type RotatableSecret } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { AppError } from './errors.js';
import { audit } from './modules/auth/audit.js';
import { listMembers, setRole } from './modules/members/repo.js';
import { addMember, forgetAllPins, resetMemberPin } from './modules/members/service.js';

const USAGE = `Usage: npm run admin -- <command>

  add-member "Full Name" [--email someone@example.com] [--admin]
  list-members
  reset-pin "Full Name"            clear the PIN; the member creates a new one at the next sign-in
  set-role "Full Name" member|admin
  rotate-secret team|admin|pepper  replace a secret in DATA_DIR/secrets.json (restart the server after)`;

const CLI_ACTOR = 'admin (command line)';

async function run(argv: string[]): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: 'string' }, admin: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...rest] = positionals;
  if (command === undefined || values.help === true) return USAGE;

  const env = parseEnv(process.env);
  if (command === 'rotate-secret') return rotateSecret(env, rest[0]);

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
  values: { email?: string; admin?: boolean },
): Promise<string> {
  const { db } = database;
  const name = rest[0];
  switch (command) {
    case 'add-member': {
      if (name === undefined) throw new UsageError('add-member needs the member\'s full name in quotes');
      const result = await addMember(db, name, { email: values.email ?? null, role: values.admin === true ? 'admin' : 'member' });
      await audit(db, { event: 'admin-action', outcome: result.created ? 'success' : 'info', actorName: CLI_ACTOR, ip: 'cli', detail: `add-member ${result.fullName}` });
      return result.created
        ? `Added ${result.fullName}${values.admin === true ? ' as admin' : ''}. They sign in with the team password and create their PIN.`
        : `${result.fullName} is already a member; nothing changed.`;
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
      const member = await resetMemberPin(db, name, CLI_ACTOR);
      if (member === undefined) throw new UsageError(`No member named "${name}"`);
      await audit(db, { event: 'admin-action', outcome: 'success', actorName: CLI_ACTOR, ip: 'cli', detail: `reset-pin ${member.full_name}` });
      return `Cleared the PIN of ${member.full_name}, ended their sessions and forgot their devices. They create a new PIN at their next sign-in.`;
    }
    case 'set-role': {
      const role = rest[1];
      if (name === undefined || (role !== 'member' && role !== 'admin')) throw new UsageError('set-role needs a full name and member or admin');
      if (!(await setRole(db, nameKey(name), role))) throw new UsageError(`No member named "${name}"`);
      await audit(db, { event: 'admin-action', outcome: 'success', actorName: CLI_ACTOR, ip: 'cli', detail: `set-role ${name} ${role}` });
      return `${name} now has the ${role} role.`;
    }
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
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

class UsageError extends Error {}

try {
  process.stdout.write(`${await run(process.argv.slice(2))}\n`);
} catch (error) {
  const known = error instanceof UsageError || error instanceof ConfigError || error instanceof AppError;
  process.stderr.write(`${known ? error.message : String(error)}\n`);
  if (error instanceof UsageError) process.stderr.write(`\n${USAGE}\n`);
  process.exitCode = 1;
}
