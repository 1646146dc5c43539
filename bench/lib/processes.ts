import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** Every process the bench starts, so any way out of the run kills them (a forgotten server would skew the next run). */
const children = new Set<ChildProcess>();

export function killAllChildren(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

process.on('exit', killAllChildren);

const tempDirs: string[] = [];

/** A temporary directory, removed by cleanUp(). */
export function makeTempDir(label: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `biggy-bench-${label}-`));
  tempDirs.push(dir);
  return dir;
}

/** Kills every child and removes the temporary directories. */
export function cleanUp(): void {
  killAllChildren();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface Child {
  process: ChildProcess;
  /** The last few KiB of stdout and stderr, for an error message when the child misbehaves. */
  outputTail(): string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string>;
}

const TAIL_BYTES = 4096;

export function startChild(command: string, args: readonly string[], options: SpawnOptions): Child {
  const child = spawn(command, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-TAIL_BYTES);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? signal ?? 'unknown');
    });
    child.once('error', (error) => {
      children.delete(child);
      resolve(`spawn error: ${error.message}`);
    });
  });
  return { process: child, outputTail: () => tail.trim(), exited };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves with how long the process took to go. */
export async function stopChild(child: Child, graceMs = 10_000): Promise<{ ms: number; graceful: boolean }> {
  const started = performance.now();
  if (child.process.exitCode !== null || child.process.signalCode !== null) return { ms: 0, graceful: true };
  child.process.kill('SIGTERM');
  const outcome = await Promise.race([child.exited.then(() => 'exited' as const), sleep(graceMs, 'timeout' as const)]);
  if (outcome === 'timeout') {
    child.process.kill('SIGKILL');
    await child.exited;
  }
  return { ms: performance.now() - started, graceful: outcome === 'exited' };
}

/** A port the kernel just handed out on loopback; free again by the time it is returned. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        if (port === 0) reject(new Error('could not obtain a free port'));
        else resolve(port);
      });
    });
  });
}

export interface ProbeResponse {
  status: number;
  contentType: string;
  /** The body as text, decompressed when the answer came with a Content-Encoding of br or gzip. */
  body: string;
  /** Every Set-Cookie header of the answer, as sent. */
  setCookies: string[];
  /** The Content-Encoding header; '' when the body came as it is. */
  contentEncoding: string;
  /** The ETag header; '' when there is none. */
  etag: string;
  /** Bytes of the body on the wire, before any decompression. */
  wireBytes: number;
}

function decoded(raw: Buffer, encoding: string): Buffer {
  if (encoding === 'br') return brotliDecompressSync(raw);
  if (encoding === 'gzip') return gunzipSync(raw);
  return raw;
}

/** What a scenario sends: the method, extra headers and a body (autocannon sends the same). */
export interface RequestSpec {
  method: 'GET' | 'POST';
  headers?: Record<string, string> | undefined;
  body?: string | undefined;
}

/** One request on a new connection (no agent, so no pooled socket outlives a stopped server); a GET unless told. */
export async function probe(port: number, pathname: string, timeoutMs = 1000, spec: RequestSpec = { method: 'GET' }): Promise<ProbeResponse | undefined> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...spec.headers };
    if (spec.body !== undefined) headers['content-length'] = String(Buffer.byteLength(spec.body));
    const request = http.request({ host: '127.0.0.1', port, path: pathname, method: spec.method, headers, agent: false, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        const contentEncoding = response.headers['content-encoding'] ?? '';
        let body: string;
        try {
          body = decoded(raw, contentEncoding).toString('utf8');
        } catch {
          body = `(a body that does not decompress as ${contentEncoding})`;
        }
        resolve({
          status: response.statusCode ?? 0,
          contentType: response.headers['content-type'] ?? '',
          body,
          setCookies: response.headers['set-cookie'] ?? [],
          contentEncoding,
          etag: response.headers.etag ?? '',
          wireBytes: raw.length,
        });
      });
      response.on('error', () => {
        resolve(undefined);
      });
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => {
      resolve(undefined);
    });
    request.end(spec.body);
  });
}

/** The value of cookie `name` among Set-Cookie headers, or undefined. */
export function cookieValue(setCookies: readonly string[], name: string): string | undefined {
  for (const header of setCookies) {
    const [pair] = header.split(';', 1);
    const separator = pair?.indexOf('=') ?? -1;
    if (pair !== undefined && separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

let clockTicksPerSecond: number | undefined;

/** CPU time (user + system; all threads, or the main thread only) a process has used so far, in ms; undefined without /proc. */
export function processCpuMs(pid: number | undefined, thread?: 'main'): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  try {
    // Fields after the command name, which may contain spaces; the task entry of the pid is the main thread alone.
    const stat = readFileSync(thread === 'main' ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    clockTicksPerSecond ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
    return Number.isFinite(ticks) ? (ticks * 1000) / clockTicksPerSecond : undefined;
  } catch {
    return undefined;
  }
}
