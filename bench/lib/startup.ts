import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, probe, startChild, stopChild } from './processes.js';
import { summarize, type Summary } from './stats.js';

export interface StartupOptions {
  mainFile: string;
  dataDir: string;
  databaseUrl: string | undefined;
  runs: number;
  /** Give up on one start after this long (the target is 2 s; this only bounds a hung server). */
  timeoutMs: number;
  pollIntervalMs: number;
}

export interface StartupResult {
  runs: number;
  /** Spawn to the first 200 of GET /api/health, one figure per measured start. */
  samplesMs: number[];
  summaryMs: Summary;
  /** SIGTERM to exit, per measured start: graceful shutdown of an idle server. */
  shutdownMs: Summary;
  warmUpMs: number;
}

/** Spawn to first healthy answer, after one unmeasured start that makes the secrets and applies the migrations. */
export async function measureStartup(options: StartupOptions): Promise<StartupResult> {
  const warmUp = await timeOneStart(options);
  const samples: number[] = [];
  const shutdowns: number[] = [];
  for (let run = 0; run < options.runs; run += 1) {
    const { readyMs, shutdownMs } = await timeOneStart(options);
    samples.push(readyMs);
    shutdowns.push(shutdownMs);
  }
  return {
    runs: options.runs,
    samplesMs: samples,
    summaryMs: summarize(samples),
    shutdownMs: summarize(shutdowns),
    warmUpMs: warmUp.readyMs,
  };
}

async function timeOneStart(options: StartupOptions): Promise<{ readyMs: number; shutdownMs: number }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
  };
  // Never inherit a DATABASE_URL from the shell: the engine under test is chosen by BENCH_DATABASE_URL only.
  delete env.DATABASE_URL;
  if (options.databaseUrl !== undefined) env.DATABASE_URL = options.databaseUrl;

  const started = performance.now();
  const child = startChild(process.execPath, [options.mainFile], { env });
  try {
    const deadline = started + options.timeoutMs;
    let exited: number | string | undefined;
    void child.exited.then((code) => {
      exited = code;
    });
    for (;;) {
      const response = await probe(port, '/api/health', 1000);
      if (response?.status === 200) break;
      if (exited !== undefined) {
        throw new Error(`the server exited (${exited}) before answering /api/health:\n${child.outputTail()}`);
      }
      if (performance.now() > deadline) {
        throw new Error(`no 200 from /api/health within ${options.timeoutMs} ms:\n${child.outputTail()}`);
      }
      await sleep(options.pollIntervalMs);
    }
    const readyMs = performance.now() - started;
    const stopped = await stopChild(child);
    if (!stopped.graceful) throw new Error(`the server ignored SIGTERM for 10 s:\n${child.outputTail()}`);
    return { readyMs, shutdownMs: stopped.ms };
  } finally {
    await stopChild(child, 2000);
  }
}
