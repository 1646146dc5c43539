import type { QueryFunction } from '@tanstack/react-query';

/**
 * The one way the client talks to the API (spec section 7): credentials always sent, a JSON body
 * only when there is a payload, and any non-ok answer becomes an ApiRequestError whose message is
 * "<status>: <body or status text>" (spec section 8).
 */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body === '' ? statusText : body}`);
    this.name = 'ApiRequestError';
  }

  /** The server's `message` field when the body is the API's JSON error, else undefined. */
  get serverMessage(): string | undefined {
    try {
      const parsed: unknown = JSON.parse(this.body);
      if (typeof parsed === 'object' && parsed !== null && 'message' in parsed && typeof parsed.message === 'string') {
        return parsed.message;
      }
    } catch {
      // Not JSON: there is no server message to show.
    }
    return undefined;
  }
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (!response.ok) {
    const body = await response.text();
    throw new ApiRequestError(response.status, body, response.statusText);
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Extra headers (e.g. the sign-in screen's team-password proof) and an abort signal. */
export interface ApiRequestOptions {
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

export async function apiRequest(method: HttpMethod, url: string, payload?: unknown, options: ApiRequestOptions = {}): Promise<Response> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    // The server refuses state-changing calls that are not declared JSON (CSRF rule,
    // ARCHITECTURE.md 4.6), so they always say so; a body goes only with a payload.
    headers: { ...(method === 'GET' ? {} : { 'Content-Type': 'application/json' }), ...options.headers },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
  });
  await throwIfNotOk(response);
  return response;
}

/** Typed JSON call: the type parameter comes from the shared contract (`z.infer`), never by hand. */
export async function apiJson<T>(method: HttpMethod, url: string, payload?: unknown, options: ApiRequestOptions = {}): Promise<T> {
  const response = await apiRequest(method, url, payload, options);
  return (await response.json()) as T;
}

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The spec's generic query function: GET the first element of the key and parse JSON. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const [url] = queryKey;
    if (typeof url !== 'string') throw new Error('The first element of a query key must be the URL to GET');
    const response = await fetch(url, { credentials: 'include', signal });
    if (options.on401 === 'returnNull' && response.status === 401) return null;
    await throwIfNotOk(response);
    return (await response.json()) as T;
  };
}

/** The text a toast shows for a failed call: the server's message when it sent one. */
export function describeError(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError) return error.serverMessage ?? fallback;
  return fallback;
}
