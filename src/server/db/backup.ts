import SQLite from 'better-sqlite3';
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Kysely, SqliteDialect, sql, type RawBuilder } from 'kysely';
import { z } from 'zod';
import { openDatabase, type DatabaseHandle, type Dialect } from './connection.js';
import { migrateToLatest } from './migrate.js';
import { migrations as allMigrations } from './migrations/index.js';
import type { Migration } from './migrations/types.js';
import type { Database } from './schema.js';

/**
 * Backup and restore of the whole database as one engine-neutral file (ADR 0034): JSON lines, a
 * header naming the format and the migrations applied, then each table (its columns, then one
 * JSON array per row), then a closing line with the row counts and a SHA-256 of everything before
 * it, so a truncated or altered file is refused before anything is written.
 */

export const BACKUP_FORMAT = 'biggy-architecture-review-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** A refusal or failure with a message fit for one line of the command line's output. */
export class BackupError extends Error {}

export interface DatabaseLocation {
  dataDir: string;
  databaseUrl: string | undefined;
}

export interface BackupSummary {
  /** Rows per table, in the order they are in the file. */
  tables: Record<string, number>;
  rows: number;
  /** The last migration the database had applied. */
  migration: string;
  engine: Dialect;
}

export interface RestoreSummary extends BackupSummary {
  /** When the backup was taken (ISO 8601). */
  createdAt: string;
}

type Value = string | number | null;
type Db = Kysely<Database>;

const MIGRATIONS_TABLE = 'schema_migrations';

/**
 * Tables that hold no data of their own, so they are neither written to a backup nor count as data
 * in the database restored into: the comment counts, which triggers rebuild as the comments go in,
 * and the health route's disk probe.
 */
const NOT_DATA = new Set(['comment_counts', 'storage_probe']);
const isDataTable = (table: { name: string }) => table.name !== MIGRATIONS_TABLE && !NOT_DATA.has(table.name);

/**
 * Rows the migrations themselves write into a new database. They do not make it "hold data", and a
 * restore replaces them with the backup's own rows.
 */
const ROWS_OF_MIGRATIONS: Readonly<Record<string, RawBuilder<unknown>>> = {
  ai_prompts: sql`created_by = 'System'`,
};

const headerSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int().positive(),
  engine: z.enum(['sqlite', 'postgres']),
  createdAt: z.string(),
  migrations: z.array(z.string()),
});
const tableLineSchema = z.strictObject({
  table: z.string().min(1),
  columns: z.array(z.string().min(1)).min(1),
  /** The highest id the table's counter had handed out, which may be above the largest id left. */
  lastId: z.number().int().nonnegative().optional(),
});
const endLineSchema = z.strictObject({
  end: z.literal(true),
  tables: z.record(z.string(), z.number().int().nonnegative()),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
type Header = z.infer<typeof headerSchema>;
type TableLine = z.infer<typeof tableLineSchema>;

// ---------------------------------------------------------------------------------------------
// The catalog: tables, columns and keys as the database itself reports them, so a table added by
// a later migration is backed up without anyone remembering to list it here.

interface TableInfo {
  name: string;
  columns: string[];
  primaryKey: string[];
  /** Tables this one has foreign keys to. */
  references: string[];
  /** The column the database numbers itself, if any. */
  autoId: string | undefined;
}

async function listTables(db: Db, dialect: Dialect): Promise<TableInfo[]> {
  const names =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const tables: TableInfo[] = [];
  for (const { name } of names.rows) tables.push(dialect === 'sqlite' ? await sqliteTable(db, name) : await postgresTable(db, name));
  return tables;
}

async function sqliteTable(db: Db, name: string): Promise<TableInfo> {
  const columns = await sql<{ name: string; pk: number; type: string }>`select name, pk, type from pragma_table_info(${name}) order by cid`.execute(db);
  const references = await sql<{ target: string }>`select distinct "table" as target from pragma_foreign_key_list(${name})`.execute(db);
  const master = await sql<{ ddl: string | null }>`select sql as ddl from sqlite_master where type = 'table' and name = ${name}`.execute(db);
  const primaryKey = columns.rows.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk).map((column) => column.name);
  const [onlyKey] = primaryKey;
  // Only an INTEGER PRIMARY KEY declared AUTOINCREMENT keeps a counter (in sqlite_sequence).
  const autoIncrement = /\bautoincrement\b/i.test(master.rows[0]?.ddl ?? '');
  return {
    name,
    columns: columns.rows.map((column) => column.name),
    primaryKey,
    references: references.rows.map((row) => row.target),
    autoId: autoIncrement && primaryKey.length === 1 ? onlyKey : undefined,
  };
}

async function postgresTable(db: Db, name: string): Promise<TableInfo> {
  const columns = await sql<{ name: string; auto: boolean }>`select column_name as name,
      (is_identity = 'YES' or coalesce(column_default, '') like 'nextval(%') as auto
    from information_schema.columns where table_schema = current_schema() and table_name = ${name} order by ordinal_position`.execute(db);
  const primaryKey = await sql<{ name: string }>`select a.attname as name
    from pg_index i cross join unnest(i.indkey) with ordinality as k(attnum, position)
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
    where i.indrelid = ${name}::regclass and i.indisprimary order by k.position`.execute(db);
  const references = await sql<{ target: string }>`select distinct c.relname as target
    from pg_constraint f join pg_class c on c.oid = f.confrelid
    where f.contype = 'f' and f.conrelid = ${name}::regclass`.execute(db);
  return {
    name,
    columns: columns.rows.map((column) => column.name),
    primaryKey: primaryKey.rows.map((column) => column.name),
    references: references.rows.map((row) => row.target),
    autoId: columns.rows.find((column) => column.auto)?.name,
  };
}

/** Referenced tables first, so rows can be inserted in file order with foreign keys checked. */
function inDependencyOrder(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (table: TableInfo) => {
    if (placed.has(table.name) || visiting.has(table.name)) return;
    visiting.add(table.name);
    for (const target of table.references) {
      const referenced = byName.get(target);
      if (referenced !== undefined && referenced !== table) place(referenced);
    }
    visiting.delete(table.name);
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) place(table);
  return ordered;
}

async function lastIdOf(db: Db, dialect: Dialect, table: TableInfo): Promise<number | undefined> {
  if (table.autoId === undefined) return undefined;
  const result =
    dialect === 'sqlite'
      ? await sql<{ last: number | null }>`select seq as last from sqlite_sequence where name = ${table.name}`.execute(db)
      : await sql<{ last: number | null }>`select pg_sequence_last_value(pg_get_serial_sequence(${table.name}, ${table.autoId})::regclass) as last`.execute(db);
  return result.rows[0]?.last ?? undefined;
}

async function appliedMigrations(db: Db, tables: readonly TableInfo[]): Promise<string[] | undefined> {
  if (!tables.some((table) => table.name === MIGRATIONS_TABLE)) return undefined;
  const rows = await sql<{ name: string }>`select name from ${sql.table(MIGRATIONS_TABLE)}`.execute(db);
  // Names start with their number, and the build's list is in that order too.
  return rows.rows.map((row) => row.name).sort();
}

// ---------------------------------------------------------------------------------------------
// Backup

const PAGE_ROWS = 1000;

/** Rows in primary-key order, a page at a time (keyset, so a large table is never held whole). */
async function* rowsOf(db: Db, table: TableInfo): AsyncGenerator<Value[]> {
  const columns = sql.join(table.columns.map((column) => sql.ref(column)));
  const key = table.primaryKey;
  if (key.length === 0) {
    const all = await sql<Record<string, unknown>>`select ${columns} from ${sql.table(table.name)}`.execute(db);
    for (const row of all.rows) yield valuesOf(table, row);
    return;
  }
  const keyRefs = sql.join(key.map((column) => sql.ref(column)));
  let after: Value[] | undefined;
  for (;;) {
    const where = after === undefined ? sql`` : sql`where (${keyRefs}) > (${sql.join(after)})`;
    const page = await sql<Record<string, unknown>>`select ${columns} from ${sql.table(table.name)} ${where} order by ${keyRefs} limit ${PAGE_ROWS}`.execute(db);
    for (const row of page.rows) yield valuesOf(table, row);
    const last = page.rows.at(-1);
    if (last === undefined || page.rows.length < PAGE_ROWS) return;
    const lastValues = valuesOf(table, last);
    after = key.map((column) => lastValues[table.columns.indexOf(column)] ?? null);
  }
}

function valuesOf(table: TableInfo, row: Record<string, unknown>): Value[] {
  return table.columns.map((column) => {
    const value = row[column];
    if (value === null || value === undefined || typeof value === 'string' || typeof value === 'number') return value ?? null;
    if (typeof value === 'bigint' && Number.isSafeInteger(Number(value))) return Number(value);
    throw new BackupError(`${table.name}.${column} holds a ${typeof value} value, which this backup format cannot carry`);
  });
}

/** Lines written through a SHA-256, into a file only the owner may read. */
class BackupWriter {
  private readonly hash: Hash = createHash('sha256');
  private buffered: string[] = [];
  private bufferedLength = 0;

  private constructor(private readonly handle: FileHandle) {}

  static async create(file: string): Promise<BackupWriter> {
    // 0600 from the first byte: the file holds PIN hashes, session and device token hashes.
    return new BackupWriter(await open(file, 'wx', 0o600));
  }

  async line(value: unknown): Promise<void> {
    const text = `${JSON.stringify(value)}\n`;
    this.hash.update(text);
    await this.push(text);
  }

  async finish(tables: Record<string, number>): Promise<void> {
    await this.push(`${JSON.stringify({ end: true, tables, sha256: this.hash.digest('hex') })}\n`);
    await this.flush();
    await this.handle.sync();
    await this.handle.close();
  }

  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }

  private async push(text: string) {
    this.buffered.push(text);
    this.bufferedLength += text.length;
    if (this.bufferedLength > 1 << 20) await this.flush();
  }

  private async flush() {
    const chunk = this.buffered.join('');
    this.buffered = [];
    this.bufferedLength = 0;
    if (chunk !== '') await this.handle.write(chunk);
  }
}

async function writeSnapshot(db: Db, dialect: Dialect, writer: BackupWriter): Promise<BackupSummary> {
  const catalog = await listTables(db, dialect);
  const migrations = await appliedMigrations(db, catalog);
  const migration = migrations?.at(-1);
  if (migrations === undefined || migration === undefined) throw new BackupError('The database has never been migrated: there is nothing to back up');
  const header: Header = { format: BACKUP_FORMAT, formatVersion: BACKUP_FORMAT_VERSION, engine: dialect, createdAt: new Date().toISOString(), migrations };
  await writer.line(header);
  const tables: Record<string, number> = {};
  let rows = 0;
  for (const table of inDependencyOrder(catalog.filter(isDataTable))) {
    const lastId = await lastIdOf(db, dialect, table);
    const line: TableLine = { table: table.name, columns: table.columns, ...(lastId === undefined ? {} : { lastId }) };
    await writer.line(line);
    let count = 0;
    for await (const row of rowsOf(db, table)) {
      await writer.line(row);
      count += 1;
    }
    tables[table.name] = count;
    rows += count;
  }
  await writer.finish(tables);
  return { tables, rows, migration, engine: dialect };
}

/**
 * Writes a consistent backup of the configured database to `file` (mode 0600), replacing it if it
 * exists. The file appears only once complete: it is written beside `file` and renamed.
 */
export async function backupDatabase(location: DatabaseLocation, file: string): Promise<BackupSummary> {
  const target = path.resolve(file);
  if (!existsSync(path.dirname(target))) throw new BackupError(`The directory ${path.dirname(target)} does not exist`);
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.partial`);
  const writer = await BackupWriter.create(partial);
  try {
    const summary = location.databaseUrl === undefined ? await backupSqlite(location.dataDir, target, writer) : await backupPostgres(location, writer);
    await rename(partial, target);
    return summary;
  } catch (error) {
    await writer.abandon();
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * SQLite's online backup copies the live database page by page into a snapshot while the server
 * keeps writing (WAL: readers do not block it). better-sqlite3 copies every page in its first step,
 * under one read transaction, so the snapshot is one consistent state and never restarts because
 * of a write in between. The snapshot is then exported like any other database.
 */
async function backupSqlite(dataDir: string, target: string, writer: BackupWriter): Promise<BackupSummary> {
  const source = path.join(dataDir, 'app.db');
  if (!existsSync(source)) throw new BackupError(`There is no database at ${source}`);
  // A private directory (0700) beside the backup: the snapshot holds the same secrets.
  const snapshotDir = await mkdtemp(path.join(path.dirname(target), '.biggy-snapshot-'));
  try {
    const snapshotFile = path.join(snapshotDir, 'app.db');
    const live = new SQLite(source, { readonly: true, fileMustExist: true });
    try {
      await live.backup(snapshotFile);
    } finally {
      live.close();
    }
    const snapshot = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(snapshotFile) }) });
    try {
      return await writeSnapshot(snapshot, 'sqlite', writer);
    } finally {
      await snapshot.destroy();
    }
  } finally {
    await rm(snapshotDir, { recursive: true, force: true });
  }
}

/** One read-only REPEATABLE READ transaction: every table is read as of the same moment. */
async function backupPostgres(location: DatabaseLocation, writer: BackupWriter): Promise<BackupSummary> {
  const handle = openDatabase({ ...location, poolSize: 1 });
  try {
    return await handle.db.connection().execute(async (conn) => {
      await sql.raw('start transaction isolation level repeatable read, read only').execute(conn);
      try {
        return await writeSnapshot(conn, 'postgres', writer);
      } finally {
        await sql.raw('rollback').execute(conn);
      }
    });
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Reading a backup

type BackupLine = { kind: 'table'; table: TableLine } | { kind: 'row'; row: Value[] };

interface VerifiedBackup {
  header: Header;
  tables: Record<string, number>;
}

/** Each line of the file after the header, checked against the checksum once the end is reached. */
async function* readBackup(file: string): AsyncGenerator<BackupLine, VerifiedBackup> {
  const name = path.basename(file);
  if (!existsSync(file)) throw new BackupError(`There is no file ${file}`);
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  const hash = createHash('sha256');
  let header: Header | undefined;
  let columns = 0;
  let currentTable: string | undefined;
  let end: z.infer<typeof endLineSchema> | undefined;
  let unreadable: number | undefined;
  const counts: Record<string, number> = {};
  let lineNumber = 0;
  for await (const text of lines) {
    lineNumber += 1;
    if (end !== undefined || unreadable !== undefined) throw new BackupError(`${name} is corrupt: there is more after line ${lineNumber - 1}`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (header === undefined) throw new BackupError(`${name} is not a backup of Biggy Architecture Review`);
      // A half-written last line is a truncated file; one followed by more is a corrupt one.
      unreadable = lineNumber;
      continue;
    }
    if (header === undefined) {
      header = parseHeader(value, name);
    } else if (Array.isArray(value)) {
      if (currentTable === undefined || value.length !== columns || !value.every(isValue)) throw new BackupError(`${name} is corrupt: line ${lineNumber} is not a row of its table`);
      counts[currentTable] = (counts[currentTable] ?? 0) + 1;
      yield { kind: 'row', row: value };
    } else if (typeof value === 'object' && value !== null && 'end' in value) {
      end = parseLine(endLineSchema, value, name, lineNumber);
      continue;
    } else {
      const table = parseLine(tableLineSchema, value, name, lineNumber);
      if (table.table in counts) throw new BackupError(`${name} is corrupt: table ${table.table} appears twice`);
      currentTable = table.table;
      columns = table.columns.length;
      counts[table.table] = 0;
      yield { kind: 'table', table };
    }
    hash.update(`${text}\n`);
  }
  if (header === undefined) throw new BackupError(`${name} is not a backup of Biggy Architecture Review`);
  if (end === undefined) throw new BackupError(`${name} is truncated: it ends before its closing line`);
  if (hash.digest('hex') !== end.sha256) throw new BackupError(`${name} is corrupt: its checksum does not match its content`);
  const expected = Object.entries(end.tables);
  if (expected.length !== Object.keys(counts).length || expected.some(([table, count]) => counts[table] !== count)) {
    throw new BackupError(`${name} is corrupt: its row counts do not match its content`);
  }
  return { header, tables: end.tables };
}

function parseHeader(value: unknown, name: string): Header {
  if (typeof value !== 'object' || value === null || !('format' in value) || value.format !== BACKUP_FORMAT) {
    throw new BackupError(`${name} is not a backup of Biggy Architecture Review`);
  }
  if ('formatVersion' in value && typeof value.formatVersion === 'number' && value.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupError(`${name} is in backup format ${value.formatVersion}, newer than this version reads (${BACKUP_FORMAT_VERSION}): restore it with a newer version`);
  }
  return parseLine(headerSchema, value, name, 1);
}

function parseLine<T>(schema: z.ZodType<T>, value: unknown, name: string, lineNumber: number): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new BackupError(`${name} is corrupt: line ${lineNumber} is not what a backup holds there`);
  return parsed.data;
}

function isValue(value: unknown): value is Value {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Reads the whole file once, so a bad file is refused before the database is touched. */
async function verifyBackup(file: string): Promise<VerifiedBackup> {
  const lines = readBackup(file);
  for (;;) {
    const next = await lines.next();
    if (next.done === true) return next.value;
  }
}

/**
 * The build's migrations the backup's database had applied: the rows fit the tables as those left
 * them. Any the build has beyond them run after the load, as they would on the original database.
 */
function migrationsOf(header: Header, name: string): Migration[] {
  const known = allMigrations.map((migration) => migration.name);
  const unknown = header.migrations.find((migration) => !known.includes(migration));
  if (unknown !== undefined) {
    throw new BackupError(`${name} is at migration level ${header.migrations.at(-1) ?? unknown}, newer than this version knows (${known.at(-1) ?? 'none'}): restore it with a newer version`);
  }
  return allMigrations.filter((migration) => header.migrations.includes(migration.name));
}

// ---------------------------------------------------------------------------------------------
// Restore

/** The first table holding rows other than those the migrations write, if any. */
async function firstTableWithData(db: Db, tables: readonly TableInfo[]): Promise<string | undefined> {
  for (const table of tables) {
    if (!isDataTable(table)) continue;
    const own = ROWS_OF_MIGRATIONS[table.name];
    const where = own === undefined ? sql`` : sql`where not (${own})`;
    const found = await sql<{ one: number }>`select 1 as one from ${sql.table(table.name)} ${where} limit 1`.execute(db);
    if (found.rows.length > 0) return table.name;
  }
  return undefined;
}

async function refuseUnlessEmpty(db: Db, dialect: Dialect, header: Header): Promise<void> {
  const tables = await listTables(db, dialect);
  const withData = await firstTableWithData(db, tables);
  if (withData !== undefined) throw new BackupError(`The database already holds data (table ${withData} has rows): restore only into an empty database`);
  const applied = (await appliedMigrations(db, tables)) ?? [];
  const ahead = applied.find((migration) => !header.migrations.includes(migration));
  if (ahead !== undefined) {
    throw new BackupError(`The database is already at migration ${applied.at(-1) ?? ahead}, past the backup's ${header.migrations.at(-1) ?? 'none'}: restore into a database no newer version has migrated`);
  }
}

/** Rows per insert: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const INSERT_PARAMETERS = 10_000;

async function insertRows(db: Db, table: TableLine, rows: Value[][]): Promise<void> {
  if (rows.length === 0) return;
  const columns = sql.join(table.columns.map((column) => sql.ref(column)));
  const values = sql.join(rows.map((row) => sql`(${sql.join(row)})`));
  await sql`insert into ${sql.table(table.table)} (${columns}) values ${values}`.execute(db);
}

/** New rows after the restore must get ids above every id the backed-up database handed out. */
async function setCounter(db: Db, dialect: Dialect, table: TableInfo, lastId: number): Promise<void> {
  if (table.autoId === undefined) return;
  const id = sql.ref(table.autoId);
  if (dialect === 'postgres') {
    await sql`select setval(pg_get_serial_sequence(${table.name}, ${table.autoId}), greatest(max_id, 1), max_id > 0)
      from (select greatest(coalesce(max(${id}), 0), ${lastId}::bigint) as max_id from ${sql.table(table.name)}) as highest`.execute(db);
    return;
  }
  // SQLite moved the counter to the largest id inserted; only a higher recorded one is left to set.
  if (lastId === 0) return;
  await sql`insert into sqlite_sequence (name, seq) select ${table.name}, 0 where not exists (select 1 from sqlite_sequence where name = ${table.name})`.execute(db);
  await sql`update sqlite_sequence set seq = max(seq, ${lastId}) where name = ${table.name}`.execute(db);
}

async function loadBackup(handle: DatabaseHandle, file: string): Promise<void> {
  const { dialect } = handle;
  await handle.db.connection().execute(async (conn) => {
    // SQLite: take the write lock up front, as the migrations do.
    await sql.raw(dialect === 'sqlite' ? 'begin immediate' : 'begin').execute(conn);
    try {
      const catalog = await listTables(conn, dialect);
      const withData = await firstTableWithData(conn, catalog);
      if (withData !== undefined) throw new BackupError(`The database already holds data (table ${withData} has rows): restore only into an empty database`);
      const byName = new Map(catalog.map((table) => [table.name, table]));
      for (const [table, own] of Object.entries(ROWS_OF_MIGRATIONS)) {
        if (byName.has(table)) await sql`delete from ${sql.table(table)} where ${own}`.execute(conn);
      }
      const lastIds = new Map<string, number>();
      let current: { line: TableLine; info: TableInfo; batch: Value[][]; batchRows: number } | undefined;
      const flush = async () => {
        if (current === undefined) return;
        await insertRows(conn, current.line, current.batch);
        current.batch = [];
      };
      const lines = readBackup(file);
      let next = await lines.next();
      while (next.done !== true) {
        const line = next.value;
        if (line.kind === 'table') {
          await flush();
          const info = byName.get(line.table.table);
          const missing = line.table.columns.find((column) => !(info?.columns.includes(column) ?? false));
          if (info === undefined || missing !== undefined) {
            throw new BackupError(`${path.basename(file)} does not fit this database: it has ${info === undefined ? `a table ${line.table.table}` : `a column ${line.table.table}.${missing ?? ''}`} the database lacks at its migration level`);
          }
          current = { line: line.table, info, batch: [], batchRows: Math.max(1, Math.floor(INSERT_PARAMETERS / line.table.columns.length)) };
          lastIds.set(info.name, line.table.lastId ?? 0);
        } else if (current !== undefined) {
          current.batch.push(line.row);
          if (current.batch.length >= current.batchRows) await flush();
        }
        next = await lines.next();
      }
      await flush();
      const absent = catalog.find((table) => isDataTable(table) && !lastIds.has(table.name));
      if (absent !== undefined) throw new BackupError(`${path.basename(file)} is incomplete: it has no table ${absent.name}`);
      for (const table of catalog) await setCounter(conn, dialect, table, lastIds.get(table.name) ?? 0);
      await sql.raw('commit').execute(conn);
    } catch (error) {
      await sql.raw('rollback').execute(conn).catch(() => undefined);
      throw error;
    }
  });
}

/**
 * Restores `file` into the configured database, which must be empty: checks the whole file first,
 * migrates the database to the backup's level, loads every table in one transaction (then moves
 * each id counter past the restored ids), and applies this version's later migrations.
 */
export async function restoreDatabase(location: DatabaseLocation, file: string): Promise<RestoreSummary> {
  const name = path.basename(file);
  const verified = await verifyBackup(path.resolve(file));
  const { header } = verified;
  const level = migrationsOf(header, name);
  const handle = openDatabase({ ...location, poolSize: 1 });
  try {
    await refuseUnlessEmpty(handle.db, handle.dialect, header);
    await migrateToLatest(handle, level);
    await loadBackup(handle, path.resolve(file));
    await migrateToLatest(handle);
  } finally {
    await handle.close();
  }
  const rows = Object.values(verified.tables).reduce((sum, count) => sum + count, 0);
  return { tables: verified.tables, rows, migration: header.migrations.at(-1) ?? '', engine: header.engine, createdAt: header.createdAt };
}
