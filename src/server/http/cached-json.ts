import type { FastifyContextConfig, FastifyRequest, FastifySchema, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { LiveEvent } from '../../common/api/live-events.js';
import type { EventBus } from '../event-bus/event-bus.js';
import { COMPRESS_REUSED_BYTES } from './compression.js';
import { ReadCache } from './read-cache.js';
import type { App } from './types.js';

export const JSON_UTF8 = 'application/json; charset=utf-8';

/** Bounds staleness only should an event never arrive (an instance that died between its commit and its event); events do the real work. */
const DEFAULT_MAX_AGE_MS = 10_000;

interface CachedRouteGeneric<Params, Query> {
  Params: Params;
  Querystring: Query;
}

/** The request of a cached route, its params and query typed by the route's zod schemas. */
export type CachedRequest<Params, Query> = FastifyRequest<
  CachedRouteGeneric<Params, Query>,
  RawServerDefault,
  RawRequestDefaultExpression,
  FastifySchema,
  ZodTypeProvider,
  FastifyContextConfig
>;

/** The keys an event makes stale: some, every one, or none. */
export type Invalidation = readonly string[] | 'all' | 'none';

export interface CachedJsonRoute<Params, Query, Value> {
  /** A GET path of the product's API contract. */
  url: string;
  schema?: { params?: z.ZodType<Params>; querystring?: z.ZodType<Query> };
  config?: FastifyContextConfig;
  /** Throws to refuse a request before the cache is looked at (an unknown component, say). */
  check?: (request: CachedRequest<Params, Query>) => void;
  /** Requests with one key get one answer: concurrent misses of a key share one load. */
  key: (request: CachedRequest<Params, Query>) => string;
  /** The answer of a key, from the database; serialized once and kept as bytes. */
  load: (request: CachedRequest<Params, Query>) => Promise<Value>;
  /** Which keys a change event makes stale; called for this instance's own events as it publishes them. */
  invalidatedBy: (event: LiveEvent) => Invalidation;
  /**
   * Runs only for a request that memory will not answer, before it starts or joins a load (the
   * caller's AI-call limit): one member's refusal is never another member's answer.
   */
  beforeLoad?: (request: CachedRequest<Params, Query>) => Promise<void>;
  /**
   * For an answer that differs by who asks (each item's permissions): the value is loaded once per
   * key and shared; `present` shapes it for one viewer, and those bytes are kept per `viewer` key
   * until the route's key changes.
   */
  perViewer?: { viewer: (request: CachedRequest<Params, Query>) => string; present: (value: Value, request: CachedRequest<Params, Query>) => unknown };
  maxAgeMs?: number;
}

/**
 * A key's answer: its bytes when everyone gets the same; else the loaded value with the bytes made
 * for each viewer so far (a shared answer keeps no value: it would double what memory holds).
 */
type CachedAnswer<Value> = { shared: Buffer } | { value: Value; byViewer: Map<string, Buffer> };

/** Past this many viewers of one key, further viewers' bytes are made for each request and not kept. */
const MAX_VIEWERS_PER_KEY = 500;

/** The cache of one route, for tests and metrics. */
export interface CachedJsonHandle {
  readonly size: number;
}

/**
 * A GET route whose answer is kept as JSON bytes in memory until a live event says it changed.
 * Each route declares here what it caches and which events drop it; the cache itself
 * (`ReadCache`) makes sure no answer older than a completed write is served:
 * - the writer's instance drops the keys as it publishes the event (EventBus.onChange), before the
 *   write's request is answered, so any later request misses;
 * - a load that started before a key was dropped is never stored, and no later request joins it;
 * - while the bus may miss events (PostgreSQL: LISTEN connection down) nothing is kept, and a gap
 *   drops everything.
 * Answers are Buffers: Fastify writes them to the socket as they are, with no second
 * serialization or encoding. A compressed answer (ADR 0029) is made once per Buffer and encoding
 * and lives as long as the Buffer, so a repeat read costs no compression either.
 */
export function cachedJson<Params = unknown, Query = unknown, Value = unknown>(app: App, events: EventBus, route: CachedJsonRoute<Params, Query, Value>): CachedJsonHandle {
  const cache = new ReadCache<CachedAnswer<Value>>(events, { maxAgeMs: route.maxAgeMs ?? DEFAULT_MAX_AGE_MS });
  const { perViewer } = route;
  const loadAnswer = async (request: CachedRequest<Params, Query>): Promise<CachedAnswer<Value>> => {
    const value = await route.load(request);
    return perViewer === undefined ? { shared: toJson(value) } : { value, byViewer: new Map() };
  };
  const bytesFor = (answer: CachedAnswer<Value>, request: CachedRequest<Params, Query>): Buffer => {
    if ('shared' in answer) return answer.shared;
    if (perViewer === undefined) return toJson(answer.value);
    const viewer = perViewer.viewer(request);
    const kept = answer.byViewer.get(viewer);
    if (kept !== undefined) return kept;
    const bytes = toJson(perViewer.present(answer.value, request));
    if (answer.byViewer.size < MAX_VIEWERS_PER_KEY) answer.byViewer.set(viewer, bytes);
    return bytes;
  };
  events.onChange((event) => {
    const stale = route.invalidatedBy(event);
    if (stale === 'all') cache.invalidateAll();
    else if (stale !== 'none') for (const key of stale) cache.invalidate(key);
  });
  events.onGap(() => {
    cache.invalidateAll();
  });

  // Typed by the generic, validated by the zod schemas: the answer is bytes, so no response schema.
  app.get<CachedRouteGeneric<Params, Query>, FastifyContextConfig>(route.url, { schema: route.schema ?? {}, config: route.config ?? {}, compress: COMPRESS_REUSED_BYTES }, async (request, reply) => {
    route.check?.(request);
    const key = route.key(request);
    if (route.beforeLoad !== undefined && !cache.has(key)) await route.beforeLoad(request);
    const answer = await cache.get(key, () => loadAnswer(request));
    return reply.type(JSON_UTF8).send(bytesFor(answer, request));
  });
  return cache;
}

function toJson(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}
