import type { Socket } from 'node:net';
import type { App } from './types.js';
import { ERROR_CODES, type ErrorCode } from '../../common/api/error-codes.js';

/**
 * Strict CSP with no inline script, nosniff, no referrer, no framing.
 *
 * These are the headers @fastify/helmet would send, built once: helmet re-derives them on every
 * request, which measured as the largest single per-request cost of the API (ADR 0008).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Radix positions popovers with inline style attributes; scripts stay strictly same-origin.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join(';');

/**
 * Powerful browser features the app never uses, denied to it and to anything it could embed.
 * Only names Chromium recognises (an unknown one is a console error); clipboard-write stays
 * allowed: the capabilities page copies its own link.
 */
const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'display-capture',
  'encrypted-media',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'permissions-policy': PERMISSIONS_POLICY,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * API answers hold members' data: no browser or proxy may keep them. A route that wants caching
 * says so itself (GET /api/architecture: `private, max-age=300` with an ETag), overriding this.
 */
export const API_CACHE_CONTROL = 'no-store';

export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

export function registerSecurityHeaders(app: App) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    // The matched route decides, not the raw URL: '/%61pi/user' is routed to '/api/user'.
    if (isApiPath(request.routeOptions.url ?? request.url)) reply.header('cache-control', API_CACHE_CONTROL);
    // Only when the request really arrived over HTTPS: HSTS on plain HTTP is meaningless and would
    // lock a LAN deployment out of its own http:// address.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
}

const CLIENT_ERRORS: Readonly<Record<string, { status: number; reason: string; message: string; code: ErrorCode }>> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', message: 'Request headers are too large', code: ERROR_CODES.headersTooLarge },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', message: 'The request took too long to arrive', code: ERROR_CODES.requestTimeout },
};
const MALFORMED: { status: number; reason: string; message: string; code: ErrorCode } = { status: 400, reason: 'Bad Request', message: 'Malformed HTTP request', code: ERROR_CODES.badRequest };

/**
 * Node's HTTP parser refuses some requests (headers over the size limit, a timeout, garbage)
 * before any Fastify code runs, and would answer with a bare status line. This answers them as
 * the API answers everything else: `{ message, code }` with the security headers.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const answer = (error.code === undefined ? undefined : CLIENT_ERRORS[error.code]) ?? MALFORMED;
    const body = JSON.stringify({ message: answer.message, code: answer.code });
    const headers = { ...SECURITY_HEADERS, 'cache-control': API_CACHE_CONTROL, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), connection: 'close' };
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    socket.write(`HTTP/1.1 ${answer.status} ${answer.reason}\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
