import { sql, type Kysely } from 'kysely';
import type { DatabaseHandle } from './connection.js';
import { migrations as allMigrations } from './migrations/index.js';
import type { Migration } from './migrations/types.js';
import type { Database } from './schema.js';

/** Any constant works; it only has to be the same for every instance of this app. */
const POSTGRES_MIGRATION_LOCK = 7_311_266_001;

/**
 * Applies pending migrations in one transaction that holds a database-wide lock, so two processes
 * starting together serialise: the second waits, then finds everything applied. SQLite takes the
 * write lock up front (BEGIN IMMEDIATE; a deferred BEGIN could not upgrade safely), PostgreSQL an
 * advisory transaction lock. Kysely's transaction() issues a plain BEGIN, hence the manual control.
 */
export async function migrateToLatest(
  handle: DatabaseHandle,
  migrations: readonly Migration[] = allMigrations,
): Promise<string[]> {
  return handle.db.connection().execute(async (conn) => {
    await sql.raw(handle.dialect === 'sqlite' ? 'begin immediate' : 'begin').execute(conn);
    try {
      if (handle.dialect === 'postgres') {
        await sql`select pg_advisory_xact_lock(${POSTGRES_MIGRATION_LOCK})`.execute(conn);
      }
      const applied = await pendingFrom(conn, migrations, handle);
      await sql.raw('commit').execute(conn);
      return applied;
    } catch (error) {
      await sql.raw('rollback').execute(conn).catch(() => undefined);
      throw error;
    }
  });
}

async function pendingFrom(conn: Kysely<Database>, migrations: readonly Migration[], handle: DatabaseHandle): Promise<string[]> {
  await conn.schema
    .createTable('schema_migrations')
    .ifNotExists()
    .addColumn('name', 'varchar(200)', (col) => col.primaryKey())
    .addColumn('applied_at', 'bigint', (col) => col.notNull())
    .execute();
  const done = new Set((await conn.selectFrom('schema_migrations').select('name').execute()).map((row) => row.name));
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.name)) continue;
    await migration.up(conn as unknown as Kysely<unknown>, handle.dialect);
    await conn.insertInto('schema_migrations').values({ name: migration.name, applied_at: Date.now() }).execute();
    applied.push(migration.name);
  }
  return applied;
}
