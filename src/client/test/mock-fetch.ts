import { vi } from 'vitest';
import { activityRoutes } from '../../common/api/activity';
import type { ErrorCode } from '../../common/api/error-codes';
import type { Route, RouteResponse } from '../../common/api/route';

/** One call the client made, as the server would read it. */
export interface RecordedRequest {
  method: string;
  path: string;
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  headers: Headers;
  /** The JSON body, parsed; undefined when none was sent. */
  body: unknown;
}

/** A success with the route's own answer type, or an error in the API's `{ code, message }` shape. */
export type Answer<T> =
  | { status?: number; body: T }
  | { status: number; error: { code: ErrorCode; message: string }; headers?: Readonly<Record<string, string>> };

type Handler<T> = Answer<T> | ((request: RecordedRequest) => Answer<T> | Promise<Answer<T>>);

interface Entry {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: Handler<unknown>;
}

export interface FetchMock {
  /** Answers every call to `route`; a later `on` for the same route takes over. */
  on<R extends Route>(route: R, handler: Handler<RouteResponse<R>>): FetchMock;
  /** The calls made to `route` so far, oldest first. */
  requests(route: Route): RecordedRequest[];
}

let unhandled: RecordedRequest[] = [];

function compile(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path.replace(/:([A-Za-z]\w*)/g, (_segment, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { pattern: new RegExp(`^${source}$`), names };
}

function toResponse(answer: Answer<unknown>): Response {
  const headers = { 'Content-Type': 'application/json' };
  if ('error' in answer) return new Response(JSON.stringify(answer.error), { status: answer.status, headers: { ...headers, ...answer.headers } });
  const status = answer.status ?? 200;
  // A 204 may carry no body at all.
  if (status === 204) return new Response(null, { status });
  return new Response(JSON.stringify(answer.body), { status, headers });
}

function parseBody(body: BodyInit | null | undefined): unknown {
  if (typeof body !== 'string') return undefined;
  return JSON.parse(body);
}

/**
 * Replaces `fetch` for one test with a router over the app's own route definitions, so the
 * fixtures are typed by the contract. A call no route answers gets a 501 and fails the test in
 * the shared `afterEach`, so a component cannot quietly depend on an unmocked call.
 */
export function mockFetch(): FetchMock {
  const entries: Entry[] = [];
  const log: { route: Entry; request: RecordedRequest }[] = [];

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const base = { method, path: url.pathname, query: url.searchParams, headers: new Headers(init.headers), body: parseBody(init.body) };
    // The newest registration wins, so a test can override a default answer.
    for (const entry of [...entries].reverse()) {
      if (entry.method !== method) continue;
      const match = entry.pattern.exec(url.pathname);
      if (match === null) continue;
      const params = Object.fromEntries(entry.names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
      const request: RecordedRequest = { ...base, params };
      log.push({ route: entry, request });
      const answer = typeof entry.handler === 'function' ? await entry.handler(request) : entry.handler;
      return toResponse(answer);
    }
    unhandled.push({ ...base, params: {} });
    return new Response(JSON.stringify({ code: 'NOT_FOUND', message: `No mock for ${method} ${url.pathname}` }), { status: 501 });
  });
  vi.stubGlobal('fetch', fetchMock);

  const mock: FetchMock = {
    on(route, handler) {
      const { pattern, names } = compile(route.path);
      // The handler's answer type is checked at the call; stored, any answer will do.
      entries.push({ method: route.method, pattern, names, handler });
      return mock;
    },
    requests(route) {
      return log.filter((entry) => entry.route.method === route.method && entry.route.pattern.source === compile(route.path).pattern.source).map((entry) => entry.request);
    },
  };
  // Every sign-in, comment, vote and page view also logs an activity, fire and forget: answered by
  // default so a test need not mock them; a test may still answer them otherwise and read them.
  mock.on(activityRoutes.log, { status: 201, body: { id: 1 } }).on(activityRoutes.sync, { body: { countedSeconds: 0, totalActiveTime: 0 } });
  return mock;
}

/** Fails the test that made a call no mock answered. */
export function assertAllRequestsHandled(): void {
  const missed = unhandled;
  unhandled = [];
  if (missed.length > 0) throw new Error(`Unmocked API calls: ${missed.map((request) => `${request.method} ${request.path}`).join(', ')}`);
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

/** A promise the test settles: holds an answer back so a pending state can be seen. */
export function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}
