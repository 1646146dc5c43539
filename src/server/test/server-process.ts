import { spawn, type ChildProcessByStdio } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

/** The real server process (src/server/main.ts), for the tests of start-up, locking and shutdown. */

export const HOST = '127.0.0.1';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

export interface ServerProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stdout(): string;
  stderr(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** Variables of this process the server must not inherit: each test says what it runs with. */
const NOT_INHERITED = new Set(['NODE_OPTIONS', 'DATABASE_URL', 'TEAM_PASSWORD', 'ADMIN_PASSWORD', 'QA_PIN', 'PIN_PEPPER', 'TRUST_PROXY', 'ADMIN_NAME', 'PUBLIC_URL']);

export function startServerProcess(env: NodeJS.ProcessEnv): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !NOT_INHERITED.has(name))), HOST, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve({ code, signal, at: Date.now() });
    });
  });
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** The status GET `path` answers, or 0 when nothing answers within a second. */
export function getStatus(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get({ host: HOST, port, path, agent: false, timeout: 1000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => { resolve(0); });
  });
}
