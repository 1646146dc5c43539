import path from 'node:path';
import { ConfigError, parseEnv, publicUrlOf, resolveSecrets } from '../config.js';
import { openDatabase } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { describeEnrollmentLinks, describeSeed, issueDemoEnrollmentLinks, seedDemo } from './demo-seed.js';

/**
 * `npm run seed:demo`: fills the configured database (DATA_DIR / DATABASE_URL, as the server reads
 * them) with the demo team's review, so a newcomer opens a living architecture review. Running it
 * again adds nothing.
 */

async function main() {
  const env = parseEnv(process.env);
  const dataDir = path.resolve(env.DATA_DIR);
  // As the server does: a fresh data directory gets its secrets now, so the demo members can sign in.
  await resolveSecrets(env, dataDir);
  const database = openDatabase({ dataDir, databaseUrl: env.DATABASE_URL, poolSize: 2 });
  try {
    await migrateToLatest(database);
    const result = await seedDemo(database.db);
    // The URL may hold a password: name the engine, not the address.
    const where = database.dialect === 'postgres' ? 'the PostgreSQL database of DATABASE_URL' : `the SQLite database in ${dataDir}`;
    // A first PIN needs an enrollment link: a fresh seed prints one per member; a second run leaves
    // the links it printed working and says how to get a new one.
    const links = result.skipped ? undefined : await issueDemoEnrollmentLinks(database.db, publicUrlOf(env));
    process.stdout.write(`${describeSeed(result, where)}\n${describeEnrollmentLinks(links)}\n`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
