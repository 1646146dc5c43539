import type { App } from './types.js';

/**
 * ARCHITECTURE.md 4.8: strict CSP with no inline script, nosniff, no referrer, no framing.
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

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

const HSTS = 'max-age=31536000; includeSubDomains';

export function registerSecurityHeaders(app: App) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    // Only when the request really arrived over HTTPS: HSTS on plain HTTP is meaningless and would
    // lock a LAN deployment out of its own http:// address.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
}
