import type { FastifyReply } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { EVENTS_PATH, isAdminEvent, isServerOnlyEvent, RESYNC_EVENT } from '../../../common/api/live-events.js';
import type { Drain } from '../../http/drain.js';
import { tooManyRequests, unauthorized } from '../../errors.js';
import type { EventBus, SessionEndNotice } from '../../event-bus/event-bus.js';
import type { App } from '../../http/types.js';
import { readSessionToken, requireMember } from '../auth/guards.js';
import { hashToken } from '../auth/secrets.js';
import type { SessionStore } from '../auth/sessions.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';

const HEARTBEAT_MS = 25_000;
/** EventSource reconnects on its own after a drop; this is how long it waits first. */
const RETRY_MS = 2_000;
/** A member with a few tabs open is normal; dozens of streams are someone holding connections. */
export const MAX_STREAMS_PER_MEMBER = 5;
/** A whole team may share one NAT address. */
export const MAX_STREAMS_PER_ADDRESS = 50;

/** Tells the page that events may have been lost; it refetches whatever it shows (src/common/api/live-events.ts). */
const RESYNC_FRAME = `event: ${RESYNC_EVENT}\ndata: {}\n\n`;
/** The stream is about to end for a graceful stop: the browser should reconnect at once, not after RETRY_MS. */
const RECONNECT_AFTER_DRAIN_MS = 100;
const RECONNECT_FRAME = `retry: ${RECONNECT_AFTER_DRAIN_MS}\n: server stopping, reconnect\n\n`;

const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  connection: 'keep-alive',
  // nginx and similar proxies would otherwise buffer the stream.
  'x-accel-buffering': 'no',
} as const;

interface OpenStream {
  reply: FastifyReply;
  tokenHash: string;
  memberId: number;
  address: string;
  /** Writes a frame while the stream is open; nothing once it has ended. */
  send(frame: string): void;
  /** Ends the stream (with a last frame) and stops everything feeding it, at once. */
  end(frame?: string): void;
}

function countWhere(streams: Iterable<OpenStream>, matches: (stream: OpenStream) => boolean): number {
  let count = 0;
  for (const stream of streams) if (matches(stream)) count += 1;
  return count;
}

function endedBy(stream: OpenStream, notice: SessionEndNotice): boolean {
  return 'tokenHash' in notice ? stream.tokenHash === notice.tokenHash : stream.memberId === notice.memberId;
}

/**
 * GET /api/events: a Server-Sent Events stream of change events for signed-in members. A stream
 * lives no longer than its session: it ends when the session is ended anywhere (logout, a PIN
 * reset… announced on the event bus, across instances on PostgreSQL), and it re-checks the session
 * at every heartbeat and at the moment the session would expire. A comment line every 25 s keeps
 * proxies from closing an idle stream.
 */
export function registerEventRoutes(app: App, deps: { events: EventBus; sessions: SessionStore; drain: Drain }) {
  const open = new Set<OpenStream>();

  const stopListening = deps.events.onSessionsEnded((notice) => {
    for (const stream of open) if (endedBy(stream, notice)) stream.end();
  });
  // Events may have been missed: every open stream's page refetches what it shows.
  const stopGaps = deps.events.onGap(() => {
    for (const stream of open) stream.send(RESYNC_FRAME);
  });
  // Stopping: each browser reconnects at once, to another instance behind the load balancer.
  const stopDrain = deps.drain.onBegin(() => {
    for (const stream of open) stream.end(RECONNECT_FRAME);
  });

  // A HEAD probe (a proxy's health check) answers at once instead of opening a stream.
  app.head(EVENTS_PATH, (request, reply) => {
    requireMember(request);
    void reply.headers(STREAM_HEADERS).send();
  });

  app.get(EVENTS_PATH, { exposeHeadRoute: false }, (request, reply) => {
    const member = requireMember(request);
    const token = readSessionToken(request);
    if (token === undefined) throw unauthorized();
    if (countWhere(open, (stream) => stream.memberId === member.id) >= MAX_STREAMS_PER_MEMBER) {
      throw tooManyRequests(Math.ceil(RETRY_MS / 1000), `At most ${MAX_STREAMS_PER_MEMBER} live-update streams per member; close another tab`, ERROR_CODES.tooManyStreams);
    }
    if (countWhere(open, (stream) => stream.address === request.ip) >= MAX_STREAMS_PER_ADDRESS) {
      throw tooManyRequests(Math.ceil(RETRY_MS / 1000), 'Too many live-update streams from this address', ERROR_CODES.tooManyStreams);
    }

    reply.hijack();
    const raw = reply.raw;
    // The hook-set headers (security headers, request id) go out with the raw head too.
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
    raw.writeHead(200, { ...headers, ...STREAM_HEADERS });
    raw.write(`retry: ${RETRY_MS}\n: connected\n\n`);

    // The role is read when the stream opens; a role change ends the member's streams, so the reconnect reads it again.
    const isAdmin = member.role === 'admin';
    let expiryTimer: NodeJS.Timeout | undefined;
    const heartbeat = setInterval(() => {
      checkSession(true);
    }, HEARTBEAT_MS);
    let unsubscribe = () => {};
    // Whatever ends the stream (its session, a drain, the client going away) stops what feeds it
    // at once: an event published in the same breath as the end must find nothing to write to,
    // since a write after the end is an 'error' event that would stop the process.
    const stop = () => {
      clearInterval(heartbeat);
      clearTimeout(expiryTimer);
      unsubscribe();
      open.delete(stream);
    };
    const stream: OpenStream = {
      reply,
      tokenHash: hashToken(token),
      memberId: member.id,
      address: request.ip,
      send: (frame) => {
        if (!raw.writableEnded && !raw.destroyed) raw.write(frame);
      },
      end: (frame) => {
        stop();
        if (!raw.writableEnded) raw.end(frame);
      },
    };
    open.add(stream);
    unsubscribe = deps.events.subscribe((event) => {
      if (isServerOnlyEvent(event) || (isAdminEvent(event) && !isAdmin)) return;
      stream.send(`event: change\ndata: ${JSON.stringify(event)}\n\n`);
    });

    // The stream does not keep its session alive: it checks it at every beat, and also at the
    // moment the session could first expire, so an expired session's stream ends on time.
    const checkSession = (beat: boolean) => {
      deps.sessions.findSession(token, Date.now(), { touch: false }).then(
        (session) => {
          if (session === undefined) {
            stream.end();
            return;
          }
          if (beat) stream.send(': heartbeat\n\n');
          clearTimeout(expiryTimer);
          if (!open.has(stream)) return;
          expiryTimer = setTimeout(() => {
            checkSession(false);
          }, Math.max(1_000, session.endsAt - Date.now() + 1));
        },
        () => {
          stream.end();
        },
      );
    };
    checkSession(false);

    raw.on('close', stop);
    // A socket torn down under a write reports it here; the stream is over either way.
    raw.on('error', stop);
  });

  // Open streams would hold a graceful shutdown for ever: end them first.
  app.addHook('preClose', (done) => {
    stopListening();
    stopGaps();
    stopDrain();
    for (const stream of open) stream.end();
    done();
  });
}
