import type { FastifyRequest } from 'fastify';
import { BlockList, isIP } from 'node:net';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { AppError, notFound } from '../errors.js';
import { secretsMatch } from '../modules/auth/secrets.js';
import type { App } from './types.js';
import { ERROR_CODES } from '../../common/api/error-codes.js';

/**
 * Prometheus metrics per app instance (a registry of its own, so tests can build many apps).
 * Routes are labelled by their pattern, never the raw URL, to keep label cardinality bounded.
 */
export function registerMetrics(app: App, options: { collectProcessMetrics: boolean; token: string | undefined }) {
  const registry = new Registry();
  if (options.collectProcessMetrics) collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? '(unmatched)',
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
  });

  app.get('/metrics', async (request, reply) => {
    const refusal = metricsRefusal(request, options.token);
    if (refusal !== undefined) throw refusal;
    reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
    return registry.metrics();
  });
}

/**
 * Route names, status counts and process figures help someone mapping the service, so /metrics
 * is not public: with METRICS_TOKEN set it needs `Authorization: Bearer <token>` from anywhere;
 * without, it answers only clients on this machine that came straight to it. A request relayed by
 * a proxy on this machine also arrives from loopback, but carries a forwarding header.
 */
function metricsRefusal(request: FastifyRequest, token: string | undefined): AppError | undefined {
  if (token !== undefined) {
    const given = bearerToken(request.headers.authorization);
    if (given !== undefined && secretsMatch(given, token)) return undefined;
    return new AppError(401, ERROR_CODES.unauthenticated, 'Metrics need Authorization: Bearer <METRICS_TOKEN>', { 'www-authenticate': 'Bearer realm="metrics"' });
  }
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  if (!forwarded && isLoopback(request.socket.remoteAddress)) return undefined;
  return notFound('Metrics are served only to this machine; set METRICS_TOKEN to scrape them from elsewhere');
}

function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  // A dual-stack socket reports an IPv4 client as ::ffff:127.0.0.1.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return LOOPBACK.check(mapped[1], 'ipv4');
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
