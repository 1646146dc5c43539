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
  /** Whether the disk under the database was found full, and since when; see StorageState. */
  storage: StorageState;
  /** A one-row write that proves the database can write again; rejects as the failing write did. */
  probeWrite(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL pool size per process. */
  poolSize?: number;
  /** PostgreSQL: longest a query waits for a pooled connection (or for a new one to connect). */
  poolWaitMs?: number;
  /** Told about a connection that failed outside any query (the query that held it is told too). */
  onConnectionError?: (error: Error) => void;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_POOL_WAIT_MS = 1000;

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  return options.databaseUrl === undefined
    ? openSqlite(path.join(options.dataDir, 'app.db'))
    : openPostgres(options.databaseUrl, {
        max: options.poolSize ?? DEFAULT_POOL_SIZE,
        waitMs: options.poolWaitMs ?? DEFAULT_POOL_WAIT_MS,
        onConnectionError: options.onConnectionError ?? (() => undefined),
      });
}

/**
 * A full disk is a state, not a bug: the first write that meets it marks it here, the health route
 * reports `degraded` while it lasts and clears it once a probe write succeeds again, and the log
 * says so once a minute rather than once per failed request.
 */
export class StorageState {
  private fullSince: number | undefined;
  private lastReportedAt = Number.NEGATIVE_INFINITY;

  /** Records a write that failed for want of space; true when this one should be logged. */
  markFull(now = Date.now()): boolean {
    this.fullSince ??= now;
    if (now - this.lastReportedAt < 60_000) return false;
    this.lastReportedAt = now;
    return true;
  }

  clear(): void {
    this.fullSince = undefined;
    this.lastReportedAt = Number.NEGATIVE_INFINITY;
  }

  get fullSinceMs(): number | undefined {
    return this.fullSince;
  }
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
  return withPing(
    db,
    'sqlite',
    () => {
      probe.get();
      return Promise.resolve();
    },
    { probeWrite: sqliteProbeWrite(db) },
  );
}

/**
 * The write the health route tries while the disk is marked full: 64 KiB written and cleared in one
 * transaction, so the database must find room for it (a one-row update could fit in a page it
 * already has), while nothing stays behind.
 */
function sqliteProbeWrite(db: Kysely<Database>): () => Promise<void> {
  const filler = 'x'.repeat(64 * 1024);
  return () =>
    db.transaction().execute(async (trx) => {
      const now = Date.now();
      await trx
        .insertInto('storage_probe')
        .values({ id: 1, written_at: now, filler })
        .onConflict((conflict) => conflict.column('id').doUpdateSet({ written_at: now, filler }))
        .execute();
      await trx.updateTable('storage_probe').set({ filler: '' }).where('id', '=', 1).execute();
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

const NO_OP_STATEMENT = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
} as const;

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
      // SQLite rolls a transaction back by itself when a write meets a full disk or an I/O error;
      // Kysely's own ROLLBACK would then fail with 'no transaction is active' and hide the cause.
      if (sql === 'rollback' && !connection.inTransaction) return NO_OP_STATEMENT;
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

interface PoolOptions {
  max: number;
  waitMs: number;
  onConnectionError: (error: Error) => void;
}

function openPostgres(connectionString: string, options: PoolOptions): DatabaseHandle {
  // Epoch-millisecond columns are bigint; they fit a JS number until the year 287396. Process-wide,
  // which is what we want: every pool of this app reads them the same way.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  const pool = new pg.Pool({
    connectionString,
    max: options.max,
    // Bounded: a request that cannot get a connection soon is answered 503 with Retry-After rather
    // than queued behind hundreds of others until every one of them is too late to be useful.
    connectionTimeoutMillis: options.waitMs,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', (error) => {
    options.onConnectionError(error);
  });
  // The pool listens for a client's errors only while it is idle. A connection that dies while a
  // request holds it (PostgreSQL restarted, pg_terminate_backend) emits 'error' besides failing the
  // query in flight, and an 'error' event nobody listens to ends the process: every client gets a
  // listener of its own for its whole life. The failed query answers the request; the pool drops
  // the broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      options.onConnectionError(error);
    });
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return withPing(
    db,
    'postgres',
    async () => {
      await pool.query('select 1 as one');
    },
    { timeoutMs: 2000 },
  );
}

interface PingOptions {
  timeoutMs?: number;
  /** Engines whose disk can fill under the app (SQLite in DATA_DIR); PostgreSQL's is its server's concern. */
  probeWrite?: () => Promise<void>;
}

function withPing(db: Kysely<Database>, dialect: Dialect, probe: () => Promise<void>, { timeoutMs, probeWrite }: PingOptions): DatabaseHandle {
  let closed = false;
  return {
    db,
    dialect,
    storage: new StorageState(),
    probeWrite: probeWrite ?? (() => Promise.resolve()),
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

/**
 * Start-up on PostgreSQL waits for the server to answer (it may be starting beside the app, or
 * restarting), retrying with a growing delay up to `waitMs`; past it, the last error is thrown.
 */
export async function waitForDatabase(databaseUrl: string, waitMs: number, onRetry: (error: unknown, delayMs: number) => void): Promise<void> {
  const deadline = Date.now() + waitMs;
  let delayMs = 250;
  for (;;) {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: Math.max(1000, Math.min(5000, waitMs)) });
    // A connection refused later than connect() would otherwise be an unheard 'error' event.
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      const left = deadline - Date.now();
      if (left <= 0) throw error;
      delayMs = Math.min(delayMs * 2, 5000, left);
      onRetry(error, delayMs);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/** Where DATABASE_URL points, without its password: for messages a person reads. */
export function describeDatabaseUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port === '' ? '5432' : url.port}${url.pathname}`;
  } catch {
    return 'the configured server';
  }
}
