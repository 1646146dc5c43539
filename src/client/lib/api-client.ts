import type { ErrorCode } from '../../common/api/error-codes';
import { IDEMPOTENCY_KEY_HEADER } from '../../common/api/idempotency';
import { buildUrl, type Route, type RouteInput, type RouteResponse } from '../../common/api/route';

/**
 * The one way the client talks to the API: `api(routes.comments.create, { body })`. The route
 * (from `src/common/api`) gives the method, the path and the types of the input and the answer.
 * Credentials always go along, a JSON body only with a payload, and any non-ok answer becomes an
 * ApiRequestError whose message is "<status>: <body or status text>".
 */
export class ApiRequestError extends Error {
  /** The server's `{ message, code }`, when the body is the API's JSON error. */
  readonly serverMessage: string | undefined;
  readonly code: string | undefined;
  /** A 429's Retry-After, in seconds: when the call may be made again. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
    retryAfter: string | null = null,
  ) {
    super(`${status}: ${body === '' ? statusText : body}`);
    this.name = 'ApiRequestError';
    const fields = errorFields(body);
    this.serverMessage = fields.get('message');
    this.code = fields.get('code');
    const seconds = Number(retryAfter ?? Number.NaN);
    this.retryAfterSeconds = Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
  }

  /** Whether the server refused the call with this error code. */
  hasCode(code: ErrorCode): boolean {
    return this.code === code;
  }
}

function errorFields(body: string): Map<string, string> {
  const fields = new Map<string, string>();
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null) return fields;
    for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string') fields.set(key, value);
  } catch {
    // Not JSON: no message or code to read.
  }
  return fields;
}

/** Whether `error` is the server refusing a call with `code`. */
export function hasErrorCode(error: unknown, code: ErrorCode): boolean {
  return error instanceof ApiRequestError && error.hasCode(code);
}

export interface ApiOptions {
  /** Extra headers (e.g. the sign-in screen's team-password proof). */
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  /** Ask the browser to finish the call even if the page is being closed. */
  keepalive?: boolean;
}

type AnyRoute = Route;

/** What every call's input is made of; a route narrows it to its own (`RouteInput`). */
interface InputParts {
  params?: Readonly<Record<string, string | number>>;
  body?: unknown;
  query?: Readonly<Record<string, string | undefined>>;
}

/** The input argument is optional for calls that take none. */
type ApiArgs<R extends AnyRoute> = [keyof RouteInput<R>] extends [never]
  ? [input?: RouteInput<R> & InputParts, options?: ApiOptions]
  : [input: RouteInput<R> & InputParts, options?: ApiOptions];

/** The answer, with its status: for the few calls whose status means something (login's 202). */
export async function apiWithStatus<R extends AnyRoute>(route: R, ...[input, options = {}]: ApiArgs<R>): Promise<{ status: number; data: RouteResponse<R> }> {
  const loose: InputParts = input ?? {};
  const hasBody = loose.body !== undefined;
  const isWrite = route.method !== 'GET';
  const init: RequestInit = {
    method: route.method,
    credentials: 'include',
    // The server refuses state-changing calls that are not declared JSON (its CSRF rule), so they
    // always say so; a body goes only with a payload. Every write carries a key of its own, which
    // its one retry repeats: the server then answers the retry with the first answer.
    headers: { ...(isWrite ? { 'Content-Type': 'application/json', [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() } : {}), ...options.headers },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.keepalive === true ? { keepalive: true } : {}),
    ...(hasBody ? { body: JSON.stringify(loose.body) } : {}),
  };
  const url = buildUrl(route.path, loose.params, loose.query);
  const response = await fetchRetryingOnce(url, init);
  const text = await response.text();
  if (!response.ok) throw new ApiRequestError(response.status, text, response.statusText, response.headers.get('retry-after'));
  // The one place the client takes an answer's shape on trust: the server validates and serializes
  // every answer with the schema of this route in the contract, whose type this is. An empty body
  // (204) is null.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- see above
  const data: RouteResponse<R> = JSON.parse(text === '' ? 'null' : text);
  return { status: response.status, data };
}

/**
 * A network error (the connection dropped, the server restarted mid-request) says nothing of
 * whether the server acted: one retry, with the same Idempotency-Key on a write, settles it.
 * An abort is the caller's choice and is not retried.
 */
async function fetchRetryingOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted === true || !(error instanceof TypeError)) throw error;
    return fetch(url, init);
  }
}

/** 128 random bits; getRandomValues, unlike randomUUID, works on a plain-http LAN address too. */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function api<R extends AnyRoute>(route: R, ...args: ApiArgs<R>): Promise<RouteResponse<R>> {
  return (await apiWithStatus(route, ...args)).data;
}

/** The text a toast shows for a failed call: the server's message when it sent one. */
export function describeError(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError) return error.serverMessage ?? fallback;
  return fallback;
}
