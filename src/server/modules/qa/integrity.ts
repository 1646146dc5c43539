import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { setPriority } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Dialect } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { integrityReport, sqliteFileOf, type IntegrityReport } from './repo.js';

/**
 * The Data Integrity suite's queries read every row. On PostgreSQL they run in the server process,
 * off the event loop. better-sqlite3 runs each statement synchronously, and on a large database
 * `integrity_check` alone holds the event loop for hundreds of milliseconds, so on SQLite a worker
 * thread runs them on a read-only connection of its own (WAL lets it read beside the writer). This
 * module is also that worker's entry.
 */

const WORKER_MARK = 'qa-integrity';

interface WorkerInput {
  mark: typeof WORKER_MARK;
  file: string;
}

type WorkerAnswer = { ok: true; report: IntegrityReport } | { ok: false; message: string };

function isWorkerInput(value: unknown): value is WorkerInput {
  return typeof value === 'object' && value !== null && 'mark' in value && value.mark === WORKER_MARK && 'file' in value && typeof value.file === 'string';
}

export async function checkIntegrity(db: Kysely<Database>, dialect: Dialect): Promise<IntegrityReport> {
  if (dialect === 'postgres') return integrityReport(db, dialect);
  const answer = await inWorker({ mark: WORKER_MARK, file: await sqliteFileOf(db) });
  if (!answer.ok) throw new Error(`the integrity queries failed: ${answer.message}`);
  return answer.report;
}

/** Built, the worker is this .js file; from the TypeScript sources (tests), it registers tsx first. */
function inWorker(input: WorkerInput): Promise<WorkerAnswer> {
  const here = import.meta.url;
  const worker = here.endsWith('.js')
    ? new Worker(new URL(here), { workerData: input })
    : new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(here)}); });`, { eval: true, workerData: input });
  return new Promise((resolve, reject) => {
    worker.once('message', (answer: WorkerAnswer) => {
      resolve(answer);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      reject(new Error(`the integrity worker exited (${code}) without an answer`));
    });
  });
}

/**
 * Background work: when the cores are busy, requests on the event loop go first. On Linux a nice
 * value belongs to the thread, so this lowers the worker alone (as the analyzer's worker does).
 */
const INTEGRITY_NICE = 10;

async function runAsWorker(input: WorkerInput): Promise<void> {
  if (process.platform === 'linux') {
    try {
      setPriority(INTEGRITY_NICE);
    } catch {
      // Not permitted here: the queries run at the server's priority.
    }
  }
  const connection = new SQLite(input.file, { readonly: true, fileMustExist: true });
  connection.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  let answer: WorkerAnswer;
  try {
    answer = { ok: true, report: await integrityReport(db, 'sqlite') };
  } catch (error) {
    answer = { ok: false, message: error instanceof Error ? error.message : String(error) };
  } finally {
    await db.destroy();
  }
  parentPort?.postMessage(answer);
}

const input: unknown = isMainThread ? undefined : workerData;
if (isWorkerInput(input)) {
  runAsWorker(input).catch((error: unknown) => {
    parentPort?.postMessage({ ok: false, message: String(error) } satisfies WorkerAnswer);
  });
}
