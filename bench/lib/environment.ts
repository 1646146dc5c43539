/** The machine and the tree a run measures, for its header and its results file. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchResults } from './results.js';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
const RESULTS_DIR = path.join(ROOT, '.bench');

/** Share of all cores busy over `ms`, from the kernel's counters (load average lags by a minute). */
export async function cpuBusyShare(ms: number): Promise<number> {
  const totals = () =>
    os.cpus().reduce(
      (sum, cpu) => {
        const { user, nice, sys, irq, idle } = cpu.times;
        return { busy: sum.busy + user + nice + sys + irq, all: sum.all + user + nice + sys + irq + idle };
      },
      { busy: 0, all: 0 },
    );
  const before = totals();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = totals();
  const all = after.all - before.all;
  return all > 0 ? (after.busy - before.busy) / all : 0;
}

export function gitState(): { commit: string; dirty: boolean } {
  const git = (args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', timeout: 5000 });
  const head = git(['rev-parse', '--short', 'HEAD']);
  const status = git(['status', '--porcelain', '--untracked-files=no']);
  return { commit: head.status === 0 ? head.stdout.trim() : 'unknown', dirty: status.status === 0 && status.stdout.trim() !== '' };
}

/** .bench/results.json (SQLite) or .bench/results-postgres.json, and a copy under .bench/history/. */
export function writeResults(results: BenchResults): string {
  mkdirSync(path.join(RESULTS_DIR, 'history'), { recursive: true });
  const { database, commit } = results.environment;
  const suffix = database === 'sqlite' ? '' : `-${database}`;
  const file = path.join(RESULTS_DIR, `results${suffix}.json`);
  const text = `${JSON.stringify(results, null, 2)}\n`;
  writeFileSync(file, text);
  const stamp = results.startedAt.replace(/[:.]/g, '-');
  writeFileSync(path.join(RESULTS_DIR, 'history', `${stamp}-${commit}${suffix}.json`), text);
  return file;
}
