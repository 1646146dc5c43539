import type { FastifyRequest } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { Transaction } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import type { App } from './types.js';

/**
 * Work a request adds to the transaction of the write it makes (the Idempotency-Key's answer, the
 * activity-log entry): it commits with the write or not at all, and costs no commit of its own.
 * It gets what the write answers, before the answer is sent.
 */
export type JoinedWork = (trx: Transaction<Database>, answer: WriteAnswer) => Promise<void>;

/** The answer of a write as the client will get it: the route's success status and the JSON text. */
export interface WriteAnswer {
  statusCode: number;
  /** The value the route sends. */
  value: unknown;
  /** Serialized by the route's own response schema, as Fastify will send it. */
  text(): string;
}

/** What a service calls in its write's transaction, just before the commit, with the value it answers. */
export type JoinWrite = (trx: Transaction<Database>, value: unknown) => Promise<void>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's service runs the request's joined work in its write's transaction (it passes
     * `joinWriteOf(request)` on). Other writes get that work done in hooks after they answer.
     */
    joinsWrite?: boolean;
  }
  interface FastifyRequest {
    /** Made when the first hook adds work: most requests have none. */
    joinedWork: RequestJoinedWork | null;
  }
}

class RequestJoinedWork {
  private readonly work: JoinedWork[] = [];
  /** Set once the work ran inside a write's transaction: the hooks after the answer leave it alone. */
  ran = false;

  add(work: JoinedWork): void {
    this.work.push(work);
  }

  async run(trx: Transaction<Database>, answer: WriteAnswer): Promise<void> {
    for (const work of this.work) await work(trx, answer);
    this.ran = true;
  }
}

/** The request's joined work, to add to or to ask whether it ran. */
export function joinedWorkOf(request: FastifyRequest): RequestJoinedWork {
  request.joinedWork ??= new RequestJoinedWork();
  return request.joinedWork;
}

/** The one 2xx status the route declares a response schema for. */
function successOf(request: FastifyRequest): { statusCode: number; schema: z.ZodType } {
  const responses: unknown = request.routeOptions.schema?.response;
  if (typeof responses === 'object' && responses !== null) {
    const success = Object.entries(responses).filter(([status]) => /^2\d\d$/.test(status));
    const [only] = success;
    if (success.length === 1 && only !== undefined && only[1] instanceof z.ZodType) return { statusCode: Number(only[0]), schema: only[1] };
  }
  throw new Error(`${request.routeOptions.url ?? request.url} joins its write but declares no single success response`);
}

/** For a route with `joinsWrite`: what its service runs in the write's transaction. */
export function joinWriteOf(request: FastifyRequest): JoinWrite {
  return async (trx, value) => {
    const work = request.joinedWork;
    if (work === null) return;
    const { statusCode, schema } = successOf(request);
    // Serialized only when asked (the Idempotency-Key's answer), and once.
    let text: string | undefined;
    const serialize = () => serializerCompiler({ schema, method: request.method, url: request.routeOptions.url ?? request.url })(value);
    await work.run(trx, { statusCode, value, text: () => (text ??= serialize()) });
  };
}

export function registerJoinedWork(app: App): void {
  app.decorateRequest('joinedWork', null);
}
