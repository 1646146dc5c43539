/**
 * An API call as plain values: its method and path, with the types of its input and answer carried
 * by the type system only. The client imports these as values (no zod reaches the page); the
 * server pairs each with its zod schemas in `src/common/contract/`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RouteTypes {
  body?: unknown;
  query?: unknown;
  response?: unknown;
}

type Field<Types, Key extends keyof RouteTypes> = Types extends Record<Key, infer Value> ? Value : undefined;

export interface Route<Method extends HttpMethod = HttpMethod, Path extends string = string, Body = unknown, Query = unknown, Response = unknown> {
  readonly method: Method;
  readonly path: Path;
  /** Never set: it only carries the types of the call's body, query and answer. */
  readonly types?: { readonly body: Body; readonly query: Query; readonly response: Response };
}

/** `defineRoute<{ body: X; response: Y }>()('POST', '/api/things')`: omitted types are `undefined`. */
export function defineRoute<Types extends RouteTypes = RouteTypes>() {
  return <Method extends HttpMethod, Path extends string>(
    method: Method,
    path: Path,
  ): Route<Method, Path, Field<Types, 'body'>, Field<Types, 'query'>, Field<Types, 'response'>> => ({ method, path });
}

/** The `:name` segments of a path. */
export type PathParamName<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamName<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathParams<Path extends string> = { readonly [Name in PathParamName<Path>]: string | number };

type Simplify<T> = { [Key in keyof T]: T[Key] } & {};

/** What a call takes: `params` when its path has `:name` segments, `body` and `query` when it declares them. */
export type RouteInput<R> =
  R extends Route<HttpMethod, infer Path, infer Body, infer Query>
    ? Simplify<
        ([PathParamName<Path>] extends [never] ? unknown : { params: PathParams<Path> }) &
          ([Body] extends [undefined] ? unknown : { body: Body }) &
          ([Query] extends [undefined] ? unknown : { query: Query })
      >
    : never;

export type RouteResponse<R> = R extends Route<HttpMethod, string, unknown, unknown, infer Response> ? Response : never;

/** A path with its `:name` segments filled in, each value percent-encoded. */
export function buildPath<Path extends string>(path: Path, params: PathParams<Path>): string {
  const values = new Map<string, string | number>(Object.entries(params));
  return path.replace(/:([A-Za-z]\w*)/g, (_segment, name: string) => {
    const value = values.get(name);
    if (value === undefined) throw new Error(`No value for :${name} in ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** The URL of a call: its path with the params filled in and the query, if any, appended. */
export function buildUrl(path: string, params: Readonly<Record<string, string | number>> | undefined, query: Readonly<Record<string, string | undefined>> | undefined): string {
  const filled = params === undefined ? path : buildPath(path, params);
  if (query === undefined) return filled;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, value);
  const text = search.toString();
  return text === '' ? filled : `${filled}?${text}`;
}
