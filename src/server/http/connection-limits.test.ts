import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.js';
import { createLimitedServer, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './connection-limits.js';

const servers: http.Server[] = [];
const sockets: net.Socket[] = [];

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

async function listen(limits: Parameters<typeof createLimitedServer>[0]): Promise<number> {
  const server = createLimitedServer(limits)((_request, response) => {
    _request.resume();
    _request.on('end', () => response.end('ok'));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A raw connection that has sent `text`; resolves with everything the server wrote once it closes. */
function rawConnection(port: number, text: string): { closed: Promise<string>; connected: Promise<void> } {
  const socket = net.connect(port, '127.0.0.1');
  sockets.push(socket);
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  const connected = new Promise<void>((resolve) => socket.once('connect', () => {
    socket.write(text);
    resolve();
  }));
  const closed = new Promise<string>((resolve) => socket.once('close', () => { resolve(received); }));
  return { closed, connected };
}

function get(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', reject);
  });
}

describe('connection limits', () => {
  it('cuts a request whose body trickles in, and keeps accepting others meanwhile', async () => {
    const port = await listen({ perAddress: undefined, requestTimeoutMs: 300 });
    const slow = rawConnection(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":');
    await slow.connected;
    expect(await get(port)).toBe(200);
    expect(await slow.closed).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes connections that send nothing within the header timeout, and keeps one that sent a request', async () => {
    const port = await listen({ perAddress: undefined, headersTimeoutMs: 300 });
    const silent = [0, 1, 2].map(() => rawConnection(port, ''));
    await Promise.all(silent.map((connection) => connection.connected));
    const closed = await Promise.all(silent.map((connection) => connection.closed));
    expect(closed).toHaveLength(3);
    const served = net.connect(port, '127.0.0.1');
    sockets.push(served);
    served.on('error', () => undefined);
    const answered = new Promise<void>((resolve) => served.once('data', () => { resolve(); }));
    served.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await answered;
    // Past the header timeout again: a kept-alive connection that was served is the keep-alive timeout's to close.
    await new Promise<void>((resolve) => { setTimeout(resolve, 600).unref(); });
    expect(served.destroyed).toBe(false);
  });

  it('closes connections over the per-address cap before reading them, and accepts again once one closes', async () => {
    const port = await listen({ perAddress: 3 });
    const held = [0, 1, 2].map(() => rawConnection(port, ''));
    await Promise.all(held.map((connection) => connection.connected));
    const over = rawConnection(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await over.closed).toBe('');
    sockets[0]?.destroy();
    await held[0]?.closed;
    expect(await get(port)).toBe(200);
  });

  it('is what the app runs on', async () => {
    const testApp = await createTestApp();
    try {
      expect(testApp.app.server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
      expect(testApp.app.server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    } finally {
      await testApp.close();
    }
  });
});
