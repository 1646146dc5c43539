import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { QaSuiteName } from '../../../common/api/qa.js';
import { apiErrorSchema } from '../../../common/contract/common.js';
import type { Dialect } from '../../db/connection.js';
import type { Database, MemberRow } from '../../db/schema.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import type { App } from '../../http/types.js';
import type { IntegrityReport } from './repo.js';

/**
 * What a self-test check works with: the application's own HTTP surface (in-process, as the QA
 * member, from the run's own address), the database for what HTTP cannot show, and the settings
 * the checks need.
 */

export type Cookies = Record<string, string>;
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type Response = LightMyRequestResponse;

export interface CallOptions {
  /** The session to call with: the run's QA session when absent, none when null. */
  session?: Cookies | null;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, instead of `body`. */
  rawBody?: string;
  /** The Content-Type of a state-changing call; application/json unless told, none when null. */
  contentType?: string | null;
}

export interface QaSettings {
  qaName: string;
  teamPassword: string;
  qaPin: string;
  sessionIdleMs: number;
  commentLimitPerMinute: number;
  errorLogMaxRows: number;
}

export interface QaContext {
  readonly app: App;
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  readonly events: EventBus;
  /** The QA member the run signed in as. */
  readonly member: MemberRow;
  readonly settings: QaSettings;
  /** The address every request of the run comes from. */
  readonly address: string;
  /** One call of the API, as a browser of the QA member makes it. */
  call(method: HttpMethod, url: string, options?: CallOptions): Promise<Response>;
  /**
   * Several calls in flight at once, all started in the same turn of the event loop (a plain call
   * first lets the loop serve other work, which would run in-process calls one after another).
   */
  callTogether(calls: readonly { method: HttpMethod; url: string; options?: CallOptions }[]): Promise<Response[]>;
  /**
   * A GET whose body is read and dropped as it streams, never gathered into one buffer and a
   * string: for reads repeated many times (the Performance suite), whose copies would only feed
   * the garbage collector. Answers the status and the size of the body.
   */
  read(url: string): Promise<{ statusCode: number; bytes: number }>;
  /** POST /api/login as the QA member (the right PIN unless told); the raw answer, always a refusal: the QA member cannot sign in there. */
  login(pin?: string): Promise<Response>;
  /** A new session of the QA member, started in-process (the sign-in routes refuse it); throws when refused. */
  newSession(): Promise<Cookies>;
  /** The integrity queries' findings, read once per run (qa/integrity.ts). */
  integrity(): Promise<IntegrityReport>;
  /** Error-report messages the run posted, removed by the clean-up. */
  readonly postedErrorMessages: string[];
  /** A string no earlier run or real member has written: it makes the run's rows recognisable. */
  unique(label: string): string;
}

export interface QaCheck {
  name: string;
  /** The default is the runner's (10 s); checks that wait on the analyzer take longer. */
  timeoutMs?: number;
  run(context: QaContext): Promise<void>;
}

export interface QaSuite {
  name: QaSuiteName;
  checks: readonly QaCheck[];
}

/** Thrown by a check that cannot run here (a feature that is absent): recorded as skipped with the reason. */
export class QaSkip extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'QaSkip';
  }
}

export function skip(reason: string): never {
  throw new QaSkip(reason);
}

export function ensure(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function describe(response: Response): string {
  const body = response.body.length > 160 ? `${response.body.slice(0, 160)}…` : response.body;
  return `${response.statusCode} ${body}`;
}

/** The answer's status is one of `expected`; the message names the call and what came back. */
export function expectStatus(response: Response, expected: number | readonly number[], what: string): void {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  if (!allowed.includes(response.statusCode)) throw new Error(`${what}: expected ${allowed.join(' or ')}, got ${describe(response)}`);
}

/** An error answer with this status and code. */
export function expectError(response: Response, status: number | readonly number[], code: string | readonly string[] | undefined, what: string): void {
  expectStatus(response, status, what);
  const parsed = apiErrorSchema.safeParse(safeJson(response));
  ensure(parsed.success, `${what}: the ${response.statusCode} answer is not an error body: ${describe(response)}`);
  if (code === undefined) return;
  const codes = typeof code === 'string' ? [code] : code;
  ensure(codes.includes(parsed.data.code), `${what}: expected code ${codes.join(' or ')}, got ${parsed.data.code}`);
}

/** The answer's JSON, checked against the contract's schema. */
export function parseBody<T>(response: Response, schema: z.ZodType<T>, what: string): T {
  const parsed = schema.safeParse(safeJson(response));
  if (!parsed.success) throw new Error(`${what}: the answer does not match the contract (${parsed.error.issues[0]?.message ?? 'invalid'}): ${describe(response)}`);
  return parsed.data;
}

function safeJson(response: Response): unknown {
  try {
    return response.json<unknown>();
  } catch {
    return undefined;
  }
}

/** A route the contract names that this build does not serve yet: the unmatched-route 404. */
export function isRouteMissing(response: Response): boolean {
  if (response.statusCode !== 404) return false;
  const parsed = apiErrorSchema.safeParse(safeJson(response));
  return parsed.success && parsed.data.code === 'NOT_FOUND';
}
