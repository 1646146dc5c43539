import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * One server process per SQLite data directory. Two would each keep their own caches and live
 * events, so the second would serve stale reads and never show the first's changes: the second
 * refuses to start instead. The lock is a file naming the holder's pid; a holder that died without
 * removing it (kill -9, a power cut) no longer runs, and its lock is taken over. The admin command
 * line does not take it: it may run beside the server (add a member, take a backup).
 */
export class DataDirLockedError extends Error {}

const LOCK_FILE = 'server.lock';

interface Holder {
  pid: number;
  startedAt: string;
}

function readHolder(file: string): Holder | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const pid: unknown = Reflect.get(parsed, 'pid');
    const startedAt: unknown = Reflect.get(parsed, 'startedAt');
    return typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0 ? { pid, startedAt: typeof startedAt === 'string' ? startedAt : 'an unknown time' } : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return typeof error === 'object' && error !== null && Reflect.get(error, 'code') === 'EPERM';
  }
}

/** Takes the directory's lock or throws DataDirLockedError naming the process that holds it; returns the release. */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, LOCK_FILE);
  const mine: Holder = { pid: process.pid, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    let fd: number;
    try {
      // wx: created only if absent, atomically, so two starts cannot both take it.
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      if (typeof error !== 'object' || error === null || Reflect.get(error, 'code') !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (holder !== undefined && holder.pid !== process.pid && isRunning(holder.pid)) {
        throw new DataDirLockedError(
          `Another server (process ${holder.pid}, started ${holder.startedAt}) is using the database in ${dataDir}; stop it first, or give this one another DATA_DIR.`,
        );
      }
      // Left by a process that is gone (or half-written by one that died writing it).
      try {
        unlinkSync(file);
      } catch {
        // Another start removed it first; try again.
      }
      continue;
    }
    writeSync(fd, JSON.stringify(mine));
    closeSync(fd);
    return () => {
      if (readHolder(file)?.pid === process.pid) unlinkSync(file);
    };
  }
  throw new DataDirLockedError(`Could not lock ${dataDir}: another server keeps starting on it.`);
}
