import SQLite from 'better-sqlite3';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Round-trip time of a trivial query in milliseconds; rejects when the database is unreachable. */
  ping(): Promise<number>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL pool size per process. */
  poolSize?: number;
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  return options.databaseUrl === undefined
    ? openSqlite(path.join(options.dataDir, 'app.db'))
    : openPostgres(options.databaseUrl, options.poolSize ?? 10);
}

function openSqlite(file: string): DatabaseHandle {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  makePrivate(file);
  const connection = new SQLite(file);
  // WAL + FULL: no acknowledged write lost on power cut (checked by kill -9 trials).
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = FULL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  // A statement prepared once: the health route is polled constantly and better-sqlite3 is
  // synchronous, so no timeout is needed either (ADR 0008).
  const probe = connection.prepare('select 1 as one');
  return withPing(db, 'sqlite', () => {
    probe.get();
    return Promise.resolve();
  });
}

/**
 * The database holds credential hashes, sessions and every comment: only the server's own user
 * may read it. SQLite gives the -wal and -shm files it creates the main file's permissions, so
 * creating that file 0600 before SQLite opens it covers all three, whatever the umask; files an
 * earlier start left readable are narrowed here too.
 */
function makePrivate(file: string) {
  closeSync(openSync(file, 'a', 0o600));
  for (const name of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      chmodSync(name, 0o600);
    } catch (error) {
      // Absent is fine; a file we do not own is the operator's arrangement, not ours to refuse.
      if (!hasCode(error, 'ENOENT') && !hasCode(error, 'EPERM')) throw error;
    }
  }
}

function hasCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew, which measured as the largest cost of a simple
 * read (~100 µs). Our queries are a fixed set of shapes with bound parameters, so each compiled
 * statement is kept and reused; better-sqlite3 statements are reusable and re-prepare themselves
 * after a schema change. We never stream (iterate), the one case where reuse could collide.
 */
function withStatementCache(connection: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      connection.close();
    },
    prepare: (sql: string) => {
      let statement = cache.get(sql);
      if (statement === undefined) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
        statement = connection.prepare(sql);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

function openPostgres(connectionString: string, max: number): DatabaseHandle {
  // Epoch-millisecond columns are bigint; they fit a JS number until the year 287396. Process-wide,
  // which is what we want: every pool of this app reads them the same way.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {
    /* reported by the next query */
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return withPing(db, 'postgres', async () => {
    await pool.query('select 1 as one');
  }, 2000);
}

function withPing(db: Kysely<Database>, dialect: Dialect, probe: () => Promise<void>, timeoutMs?: number): DatabaseHandle {
  let closed = false;
  return {
    db,
    dialect,
    async ping() {
      if (closed) throw new Error('database is closed');
      const started = performance.now();
      if (timeoutMs === undefined) {
        await probe();
      } else {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            reject(new Error(`database did not answer within ${timeoutMs} ms`));
          }, timeoutMs);
        });
        try {
          await Promise.race([probe(), timeout]);
        } finally {
          clearTimeout(timer);
        }
      }
      return performance.now() - started;
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}
