import SQLite from 'better-sqlite3';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * One server process per SQLite data directory. Two would each keep their own caches and live
 * events, so the second would serve stale reads and never show the first's changes: the second
 * refuses to start instead.
 *
 * The lock is the operating system's: an exclusive SQLite transaction on a file of its own, held
 * for the life of the process. The kernel releases it when the process ends, however it ends
 * (kill -9, a crash), so a lock is never stale and two starts can never both take it. Who holds it
 * is written beside it, for the message only. The admin command line does not take it: it may run
 * beside the server (add a member, take a backup).
 */
export class DataDirLockedError extends Error {}

const LOCK_FILE = 'server.lock';
const HOLDER_FILE = 'server.pid';

function describeHolder(file: string): string {
  try {
    const holder: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof holder !== 'object' || holder === null) return 'another process';
    const pid: unknown = Reflect.get(holder, 'pid');
    const startedAt: unknown = Reflect.get(holder, 'startedAt');
    if (typeof pid !== 'number') return 'another process';
    return typeof startedAt === 'string' ? `process ${pid}, started ${startedAt}` : `process ${pid}`;
  } catch {
    // Not written yet: the holder is starting this very moment.
    return 'another process';
  }
}

function isBusy(error: unknown): boolean {
  const code: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** Takes the directory's lock or throws DataDirLockedError naming the process that holds it; returns the release. */
export function lockDataDir(dataDir: string): () => void {
  // The directory may not exist yet: with every secret set in the environment nothing else has
  // written to it before the lock is taken.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const holderFile = path.join(dataDir, HOLDER_FILE);
  const lock = new SQLite(path.join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('begin exclusive');
  } catch (error) {
    lock.close();
    if (!isBusy(error)) throw error;
    throw new DataDirLockedError(
      `Another server (${describeHolder(holderFile)}) is using the database in ${dataDir}; stop it first, or give this one another DATA_DIR.`,
    );
  }
  writeFileSync(holderFile, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }), { mode: 0o600 });
  return () => {
    try {
      unlinkSync(holderFile);
    } catch {
      // Already gone: nothing to tidy.
    }
    lock.close();
  };
}
