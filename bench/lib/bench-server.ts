/** Starts bench/server.ts (application and baseline in one process) and waits for its ready line. */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { parseJson } from './output.js';
import { makeTempDir, startChild, stopChild, type Child } from './processes.js';
import { BENCH_SERVER_ENV, readyLineSchema, replicaReadyLineSchema, type ReadyLine, type ReplicaReadyLine } from './protocol.js';

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

export interface BenchServerOptions {
  activityData?: boolean;
  /** Trust loopback proxies: no per-address connection cap (the mixed load's hundreds of connections). */
  trustProxy?: boolean;
  /** DATABASE_POOL_SIZE of the server, unless the shell sets one. */
  poolSize?: number;
}

/** The environment of a bench server process: the shell's without any BENCH_*, then what this run decides. */
function serverEnv(dataDir: string, databaseUrl: string | undefined, options: BenchServerOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BENCH_')));
  env[BENCH_SERVER_ENV.dataDir] = dataDir;
  if (databaseUrl !== undefined) env[BENCH_SERVER_ENV.databaseUrl] = databaseUrl;
  if (options.activityData === true) env[BENCH_SERVER_ENV.activityData] = '1';
  if (options.trustProxy === true) env[BENCH_SERVER_ENV.trustProxy] = '1';
  if (options.poolSize !== undefined && env.DATABASE_POOL_SIZE === undefined) env.DATABASE_POOL_SIZE = String(options.poolSize);
  return env;
}

/**
 * BENCH_SERVER_NODE_ARGS: extra Node options for every bench server process, such as
 * `--cpu-prof --cpu-prof-dir=.bench/profiles` to see where a scenario's time goes (Node refuses
 * those in NODE_OPTIONS).
 */
const EXTRA_NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter((arg) => arg !== '');

export async function startBenchServer(clientDir: string | undefined, databaseUrl: string | undefined, options: BenchServerOptions = {}): Promise<BenchServer> {
  const dataDir = makeTempDir('load');
  const env = serverEnv(dataDir, databaseUrl, options);
  if (clientDir !== undefined) env[BENCH_SERVER_ENV.clientDir] = clientDir;
  // --expose-gc: the server collects the garbage of its own data generation before listening.
  const child = startChild(process.execPath, [...EXTRA_NODE_ARGS, '--expose-gc', await buildBenchServer()], { env, cwd: ROOT });
  const firstLine = await readyLineOf(child);
  const parsed = readyLineSchema.safeParse(parseJson(firstLine));
  if (!parsed.success) {
    await stopChild(child, 2000);
    throw new Error(`bench server printed an unexpected line: ${firstLine}`);
  }
  return { child, ready: parsed.data, dataDir };
}

/**
 * A second instance of the app on a primary's PostgreSQL database, with its DATA_DIR (the same
 * secrets, so a session or a PIN of one is good on the other): no seeding, no data, no baseline.
 */
export async function startReplicaServer(primary: BenchServer, databaseUrl: string, options: BenchServerOptions = {}): Promise<{ child: Child; ready: ReplicaReadyLine }> {
  const env = serverEnv(primary.dataDir, databaseUrl, options);
  env[BENCH_SERVER_ENV.replica] = '1';
  const child = startChild(process.execPath, [...EXTRA_NODE_ARGS, await buildBenchServer()], { env, cwd: ROOT });
  const firstLine = await readyLineOf(child);
  const parsed = replicaReadyLineSchema.safeParse(parseJson(firstLine));
  if (!parsed.success) {
    await stopChild(child, 2000);
    throw new Error(`bench replica printed an unexpected line: ${firstLine}`);
  }
  return { child, ready: parsed.data };
}

/** The child's first stdout line; stdout is drained from then on, so it can never block on a full pipe. */
async function readyLineOf(child: Child): Promise<string> {
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
    return firstLine;
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
