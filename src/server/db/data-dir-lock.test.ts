import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the data directory lock', () => {
  it('makes a data directory that does not exist yet, private to the server, and locks it', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'biggy-lock-'));
    made.push(root);
    const dataDir = path.join(root, 'not', 'yet', 'there');
    const release = lockDataDir(dataDir);
    try {
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
    } finally {
      release();
    }
    lockDataDir(dataDir)();
  });
});
