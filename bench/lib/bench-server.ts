/** Starts bench/server.ts (application and baseline in one process) and waits for its ready line. */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { parseJson } from './output.js';
import { makeTempDir, startChild, stopChild, type Child } from './processes.js';
import { BENCH_SERVER_ENV, readyLineSchema, type ReadyLine } from './protocol.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER_FILE = fileURLToPath(new URL('../server.ts', import.meta.url));
/** Two folders below the root, as bench/lib is, so that its paths to dist/ resolve as they do from here. */
const BUILT_SERVER_FILE = fileURLToPath(new URL('../../.bench/build/server.mjs', import.meta.url));
/** Start-up, seeding, argon2 timing and the comment and activity data generation (well under 60 s on either database). */
const SERVER_READY_MS = 180_000;

export interface BenchServer {
  child: Child;
  ready: ReadyLine;
  /** Where its SQLite database lives (what the admin command line needs to reach it). */
  dataDir: string;
}

export async function startBenchServer(clientDir: string | undefined, databaseUrl: string | undefined, options: { activityData?: boolean } = {}): Promise<BenchServer> {
  // Only what this run decides reaches the server: no stray BENCH_* from the shell.
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BENCH_')));
  const dataDir = makeTempDir('load');
  env[BENCH_SERVER_ENV.dataDir] = dataDir;
  if (databaseUrl !== undefined) env[BENCH_SERVER_ENV.databaseUrl] = databaseUrl;
  if (clientDir !== undefined) env[BENCH_SERVER_ENV.clientDir] = clientDir;
  if (options.activityData === true) env[BENCH_SERVER_ENV.activityData] = '1';

  // --expose-gc: the server collects the garbage of its own data generation before listening.
  const child = startChild(process.execPath, ['--expose-gc', await buildBenchServer()], { env, cwd: ROOT });
  const stdout = child.process.stdout;
  if (stdout === null) throw new Error('bench server has no stdout');
  const lines = createInterface({ input: stdout });
  try {
    const firstLine = await Promise.race([
      new Promise<string>((resolve) => lines.once('line', resolve)),
      child.exited.then((code) => Promise.reject(new Error(`bench server exited (${code}) before it was ready:\n${child.outputTail()}`))),
      new Promise<never>((_, reject) => {
        setTimeout(() => {
          reject(new Error(`bench server not ready within ${SERVER_READY_MS / 1000} s:\n${child.outputTail()}`));
        }, SERVER_READY_MS).unref();
      }),
    ]);
    const parsed = readyLineSchema.safeParse(parseJson(firstLine));
    if (!parsed.success) throw new Error(`bench server printed an unexpected line: ${firstLine}`);
    return { child, ready: parsed.data, dataDir };
  } catch (error) {
    await stopChild(child, 2000);
    throw error;
  } finally {
    lines.close();
    // Keep draining stdout so the server can never block on a full pipe.
    stdout.resume();
  }
}

/**
 * bench/server.ts as one JavaScript file, its packages left to node_modules and the application
 * loaded from dist/ as before. Run through tsx, the server would carry tsx's loader (a thread of its
 * own, ~40 MiB resident) that `npm start` does not, and its memory would not be the application's.
 */
async function buildBenchServer(): Promise<string> {
  await build({ entryPoints: [SERVER_FILE], outfile: BUILT_SERVER_FILE, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' });
  return BUILT_SERVER_FILE;
}

/** VmRSS of a process from /proc, in MiB; undefined where /proc is not there. */
function residentMiB(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? undefined : Number(match[1]) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * Samples a process's resident memory every 100 ms; stop() returns the peak. lap() returns the peak
 * since the last lap (or the start), to tell which part of a run the memory went to.
 */
export function sampleRss(pid: number | undefined): { stop: () => number | undefined; lap: () => number | undefined } {
  let peak: number | undefined;
  let lapPeak: number | undefined;
  const sample = () => {
    const now = pid === undefined ? undefined : residentMiB(pid);
    if (now === undefined) return;
    peak = Math.max(peak ?? 0, now);
    lapPeak = Math.max(lapPeak ?? 0, now);
  };
  sample();
  const timer = setInterval(sample, 100);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
    lap: () => {
      sample();
      const value = lapPeak;
      lapPeak = undefined;
      return value;
    },
  };
}
