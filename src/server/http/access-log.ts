import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { ENROLLMENT_LINK_PREFIX } from '../../common/api/auth.js';

const ENROLLMENT_ROUTE = `${ENROLLMENT_LINK_PREFIX}:token`;
const REDACTED_ENROLLMENT_URL = `${ENROLLMENT_LINK_PREFIX}[token]`;

/**
 * The path as a router or a browser may read it: percent-decoded (until it no longer changes, so
 * `%2565` is caught too), backslashes as slashes, runs of slashes as one, dot segments resolved,
 * path parameters (`;x` after a segment, which some servers and proxies drop) left out, in lower
 * case.
 */
function normalisedPath(url: string): string {
  let path = url.split(/[?#]/, 1)[0] ?? '';
  for (let round = 0; round < 5; round += 1) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      break;
    }
    if (decoded === path) break;
    path = decoded;
  }
  const segments: string[] = [];
  for (const written of path.replaceAll('\\', '/').split('/')) {
    const segment = written.split(';', 1)[0] ?? '';
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`.toLowerCase();
}

/** Whether the address is an enrollment link, by the route Fastify matched or however its path is spelled. */
export function isEnrollmentUrl(request: FastifyRequest): boolean {
  if (request.routeOptions.url === ENROLLMENT_ROUTE) return true;
  return `${normalisedPath(request.url)}/`.startsWith(ENROLLMENT_LINK_PREFIX);
}

/**
 * Fastify's request log fields, with an enrollment link's token cut out of the URL. The token is a
 * credential, and an address that reaches the page fallback or a 404 (`/ENROLL/…`, `//enroll/…`,
 * `/%65nroll/…`) carries it as well as the canonical one.
 */
export function serializeRequest(request: FastifyRequest) {
  const url = isEnrollmentUrl(request) ? REDACTED_ENROLLMENT_URL : request.url;
  return { method: request.method, url, host: request.host, remoteAddress: request.ip, remotePort: request.socket.remotePort };
}

/**
 * Polled every few seconds by load balancers and Prometheus, or held open for hours (the event
 * stream); logging them would drown the real traffic.
 */
const UNLOGGED_ROUTES: ReadonlySet<string> = new Set(['/api/health', '/metrics', '/api/events']);

/**
 * One access-log line per request, written when it completes, with the request and the answer
 * together. Fastify's default adds an 'incoming request' line too, which doubled the logging cost
 * of a request (measured ~15 µs each on the hot reads, ADR 0008); it stays available at debug level,
 * for following a request that never completes.
 */
export class AccessLog extends LogController {
  constructor() {
    super({ disableRequestLogging: (request: FastifyRequest) => UNLOGGED_ROUTES.has(request.routeOptions.url ?? '') });
  }

  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
