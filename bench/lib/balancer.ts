/**
 * A round-robin TCP load balancer for the mixed load on two app instances: each incoming
 * connection goes to the next backend in turn and is piped both ways, bytes unread (as a layer-4
 * balancer such as HAProxy's `mode tcp` does). Kept-alive HTTP connections stay on their backend, so
 * N connections split N/2 to each of two. It runs as a process of its own (`startBalancer`) so it
 * never shares an event loop with autocannon; the mixed-load step measures its overhead.
 *
 * Run as a script: `node --import tsx bench/lib/balancer.ts <port> [<port>…]` prints
 * `{"port":<listening port>}` once it listens on 127.0.0.1, and exits when its stdin closes.
 */
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { parseJson } from './output.js';
import { startChild, stopChild, type Child } from './processes.js';

const SCRIPT = fileURLToPath(import.meta.url);
const readyLineSchema = z.object({ port: z.number().int().positive() });

function serve(backends: readonly number[]): Promise<net.Server> {
  let next = 0;
  const server = net.createServer({ noDelay: true }, (client) => {
    const port = backends[next % backends.length] ?? 0;
    next += 1;
    const upstream = net.connect({ host: '127.0.0.1', port, noDelay: true });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', close);
    upstream.on('close', close);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // The backlog of a load run's hundreds of connections opened at once.
    server.listen({ port: 0, host: '127.0.0.1', backlog: 2048 }, () => {
      resolve(server);
    });
  });
}

export interface Balancer {
  child: Child;
  port: number;
}

/** Starts the balancer in a child process in front of the given ports of 127.0.0.1. */
export async function startBalancer(backends: readonly number[]): Promise<Balancer> {
  const child = startChild(process.execPath, ['--import', 'tsx', SCRIPT, ...backends.map(String)], {});
  const stdout = child.process.stdout;
  if (stdout === null) throw new Error('the balancer has no stdout');
  const lines = createInterface({ input: stdout });
  try {
    const line = await Promise.race([
      new Promise<string>((resolve) => lines.once('line', resolve)),
      child.exited.then((code) => Promise.reject(new Error(`the balancer exited (${code}) before it listened:\n${child.outputTail()}`))),
    ]);
    const parsed = readyLineSchema.safeParse(parseJson(line));
    if (!parsed.success) throw new Error(`the balancer printed an unexpected line: ${line}`);
    return { child, port: parsed.data.port };
  } catch (error) {
    await stopChild(child, 2000);
    throw error;
  } finally {
    lines.close();
    stdout.resume();
  }
}

if (process.argv[1] === SCRIPT) {
  const backends = process.argv.slice(2).map(Number);
  if (backends.length === 0 || backends.some((port) => !Number.isInteger(port) || port <= 0)) {
    process.stderr.write('usage: balancer.ts <port> [<port>…]\n');
    process.exit(2);
  }
  const server = await serve(backends);
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the balancer is not listening on a TCP port');
  process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
  const exit = () => process.exit(0);
  process.on('SIGTERM', exit);
  process.on('SIGINT', exit);
  process.stdin.on('end', exit);
  process.stdin.resume();
}
