import type { FastifyReply } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { EVENTS_PATH } from '../../../shared/contract/events.js';
import type { EventBus } from '../../events/event-bus.js';
import type { App } from '../../http/types.js';
import { readSessionToken, requireMember } from '../auth/guards.js';
import type { SessionStore } from '../auth/sessions.js';

const HEARTBEAT_MS = 25_000;
/** EventSource reconnects on its own after a drop; this is how long it waits first. */
const RETRY_MS = 2_000;

/**
 * GET /api/events: a Server-Sent Events stream of change events for signed-in members. A comment
 * line every 25 s keeps proxies from closing an idle stream, and each beat re-checks the session
 * (without refreshing it) so a stream ends when its session does.
 */
export function registerEventRoutes(app: App, deps: { events: EventBus; sessions: SessionStore }) {
  const open = new Set<FastifyReply>();

  app.get(EVENTS_PATH, (request, reply) => {
    requireMember(request);
    const token = readSessionToken(request);
    reply.hijack();
    const raw = reply.raw;
    // The hook-set headers (security headers, request id) go out with the raw head too.
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
    raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // nginx and similar proxies would otherwise buffer the stream.
      'x-accel-buffering': 'no',
    });
    raw.write(`retry: ${RETRY_MS}\n: connected\n\n`);
    open.add(reply);

    const unsubscribe = deps.events.subscribe((event) => {
      raw.write(`event: change\ndata: ${JSON.stringify(event)}\n\n`);
    });
    const heartbeat = setInterval(() => {
      const check = token === undefined ? Promise.resolve(undefined) : deps.sessions.findSession(token, Date.now(), { touch: false });
      check.then(
        (session) => {
          if (session === undefined) raw.end();
          else raw.write(': heartbeat\n\n');
        },
        () => raw.end(),
      );
    }, HEARTBEAT_MS);

    raw.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(reply);
    });
  });

  // Open streams would hold a graceful shutdown for ever: end them first.
  app.addHook('preClose', (done) => {
    for (const reply of open) reply.raw.end();
    done();
  });
}
