import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseLiveEventJson, RESYNC_EVENT, type LiveEvent } from '../../common/api/live-events.js';
import type { App } from '../http/types.js';
import { cookieHeader, type SessionCookies } from './sign-in.js';

/**
 * GET /api/events as a browser's EventSource reads it, against a listening app: for the tests of
 * the live-event stream.
 */

export interface ReceivedEvent {
  event: LiveEvent;
  /** performance.now() when its frame was parsed. */
  at: number;
}

/** A minimal EventSource: frames split on blank lines, `event:`/`data:`/`retry:` fields, `:` comments. */
export interface SseStream {
  response: http.IncomingMessage;
  retry: number | undefined;
  comments: string[];
  events: ReceivedEvent[];
  /** `resync` frames received: the server may have missed events, the page refetches. */
  resyncs: number;
  /** Other event names or unparsable data: must stay empty. */
  unexpected: string[];
  ended: boolean;
  waitFor(what: string, condition: () => boolean, timeoutMs?: number): Promise<void>;
  nextEvent(predicate: (event: LiveEvent) => boolean, timeoutMs?: number): Promise<ReceivedEvent>;
  close(): void;
}

const openStreams = new Set<SseStream>();

/** Closes every stream a test left open (call it in afterEach). */
export function closeOpenStreams(): void {
  for (const stream of openStreams) stream.close();
}

/** GET /api/events answered something other than a stream. */
export class StreamRefused extends Error {
  constructor(readonly status: number | undefined) {
    super(`GET /api/events answered ${status}`);
  }
}

export function openStream(baseUrl: string, cookies: SessionCookies): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}/api/events`, { headers: { cookie: cookieHeader(cookies), accept: 'text/event-stream' }, agent: false });
    request.on('error', reject);
    request.on('response', (response) => {
      if (response.statusCode !== 200) {
        reject(new StreamRefused(response.statusCode));
        response.resume();
        return;
      }
      const listeners = new Set<() => void>();
      const notify = () => {
        for (const listener of listeners) listener();
      };
      const stream: SseStream = {
        response,
        retry: undefined,
        comments: [],
        events: [],
        resyncs: 0,
        unexpected: [],
        ended: false,
        waitFor(what, condition, timeoutMs = 2000) {
          return new Promise((done, fail) => {
            const check = () => {
              if (condition()) {
                clearTimeout(timer);
                listeners.delete(check);
                done();
              } else if (stream.ended) {
                clearTimeout(timer);
                listeners.delete(check);
                fail(new Error(`the stream ended while waiting for ${what}`));
              }
            };
            const timer = setTimeout(() => {
              listeners.delete(check);
              fail(new Error(`no ${what} within ${timeoutMs} ms; events so far: ${JSON.stringify(stream.events.map((received) => received.event))}`));
            }, timeoutMs);
            listeners.add(check);
            check();
          });
        },
        async nextEvent(predicate, timeoutMs = 2000) {
          const find = () => stream.events.find((received) => predicate(received.event));
          await stream.waitFor('a matching event', () => find() !== undefined, timeoutMs);
          const found = find();
          if (found === undefined) throw new Error('unreachable: the event was found a moment ago');
          return found;
        },
        close() {
          request.destroy();
        },
      };
      openStreams.add(stream);
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          parseFrame(stream, buffer.slice(0, end), at);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
        notify();
      });
      const finish = () => {
        stream.ended = true;
        openStreams.delete(stream);
        notify();
      };
      response.on('end', finish);
      response.on('close', finish);
      // Resolved once the server has subscribed this stream (it says so in its first frame).
      stream.waitFor('the connected comment', () => stream.comments.includes('connected')).then(() => {
        resolve(stream);
      }, reject);
    });
  });
}

function parseFrame(stream: SseStream, frame: string, at: number) {
  let name = 'message';
  const data: string[] = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
    else if (line.startsWith('retry:')) stream.retry = Number(line.slice('retry:'.length).trim());
    else if (line.startsWith('event:')) name = line.slice('event:'.length).trim();
    else if (line.startsWith('data:')) data.push(line.slice('data:'.length).trimStart());
    else if (line !== '') stream.unexpected.push(line);
  }
  if (data.length === 0) return;
  if (name === RESYNC_EVENT) {
    stream.resyncs += 1;
    return;
  }
  const event = name === 'change' ? parseLiveEventJson(data.join('\n')) : null;
  if (event !== null) stream.events.push({ event, at });
  else stream.unexpected.push(`${name}: ${data.join('\n')}`);
}

export function baseUrlOf(app: App): string {
  const address = app.server.address() as AddressInfo | null;
  if (address === null) throw new Error('the app is not listening');
  return `http://127.0.0.1:${address.port}`;
}

