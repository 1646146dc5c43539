import { parseEnv, ConfigError } from '../config.js';
import path from 'node:path';
import { openDatabase } from './connection.js';
import { migrateToLatest } from './migrate.js';

/** `npm run migrate`: applies pending migrations and prints their names as JSON (used by tests too). */
try {
  const env = parseEnv(process.env);
  const handle = openDatabase({ dataDir: path.resolve(env.DATA_DIR), databaseUrl: env.DATABASE_URL, poolSize: 1 });
  try {
    const applied = await migrateToLatest(handle);
    process.stdout.write(`${JSON.stringify({ applied })}\n`);
  } finally {
    await handle.close();
  }
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
