import http from 'node:http';
import type { Socket } from 'node:net';

/** Whole request, headers and body, from its first byte: a body trickled in byte by byte is cut here. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Headers are a few hundred bytes: ten seconds is generous for any real client. */
export const HEADERS_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** How often Node looks for requests past those limits (its default of 30 s would double them). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
/**
 * Connections one address may hold open at once. A team behind one NAT address opens a few each
 * (a page, a live stream, kept-alive API calls), so this is far above a real team of a hundred; one
 * client opening thousands would otherwise use up the process's file descriptors and shut everyone
 * out.
 */
export const MAX_CONNECTIONS_PER_ADDRESS = 256;

/**
 * Connections the kernel holds for the process to accept. Node's default (511) overflows when
 * hundreds arrive while the event loop is busy (a proxy reconnecting after a deploy, a team opening
 * the page at once): the kernel then drops the handshakes, and clients retry only after 1, 3 and
 * 7 s. The kernel caps it at net.core.somaxconn.
 */
export const LISTEN_BACKLOG = 4096;

export interface ConnectionLimits {
  /** Off behind a reverse proxy: every connection comes from the proxy, which must limit clients itself. */
  perAddress: number | undefined;
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
}

/**
 * The HTTP server Fastify runs on, with the limits an anonymous client could otherwise abuse:
 * request and header timeouts (Fastify's default is none), and a cap of open connections per
 * address. Connections over the cap are closed before a byte is read.
 */
export function createLimitedServer(limits: ConnectionLimits) {
  const requestTimeout = limits.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  return (handler: http.RequestListener): http.Server => {
    const server = http.createServer(
      {
        requestTimeout,
        // Node requires the headers' limit to be within the whole request's.
        headersTimeout: Math.min(limits.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout),
        connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_INTERVAL_MS, requestTimeout),
      },
      handler,
    );
    // Fastify's own default, which it sets only on servers it creates: longer than the 60 s idle
    // timeout of common load balancers, so they, not we, close an idle kept-alive connection.
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    const perAddress = limits.perAddress;
    if (perAddress !== undefined) {
      const open = new Map<string, number>();
      server.on('connection', (socket: Socket) => {
        const address = socket.remoteAddress ?? 'unknown';
        const count = (open.get(address) ?? 0) + 1;
        if (count > perAddress) {
          socket.destroy();
          return;
        }
        open.set(address, count);
        socket.once('close', () => {
          const left = (open.get(address) ?? 1) - 1;
          if (left === 0) open.delete(address);
          else open.set(address, left);
        });
      });
    }
    return server;
  };
}
