/** What a throughput scenario is, and the helpers the scenario files share. */
import { currentUserSchema } from '../../src/common/contract/user.js';
import type { FloodReport, Flood } from './flood.js';
import type { LoadOptions, LoadResult } from './load.js';
import { parseJson } from './output.js';
import { cookieValue, probe, type ProbeResponse, type RequestSpec } from './processes.js';
import { SESSION_COOKIE, type ReadyLine } from './protocol.js';
import type { PostVerification, ScenarioResult, Step, TargetResult } from './results.js';
import { SETTINGS } from './settings.js';
import { fixed } from './table.js';

export interface Judgement {
  target: string;
  /** Whether the scenario has a target (PASS/FAIL) or is only reported (INFO). */
  gated: boolean;
  /** Reasons the target is missed; any makes the scenario FAIL. */
  problems: string[];
  /** Printed under the table whatever the outcome. */
  notes: string[];
  /** The "measured" cell of the targets table, when the default (req/s, share of baseline, p99) does not fit. */
  measured?: string;
  argon2?: ScenarioResult['argon2'];
}

/** A write scenario's check around its load: what to tell autocannon, a snapshot before, the verdict after. */
export interface Verifier {
  loadOptions: Pick<LoadOptions, 'bounded' | 'idReplacement' | 'onResponse'>;
  before: () => Promise<void>;
  after: (load: LoadResult) => Promise<PostVerification>;
}

export interface JudgeContext {
  /** req/s over the req/s of the scenario's baseline. */
  ratio: number;
  ready: ReadyLine;
  verification: PostVerification | undefined;
  flood: FloodReport | undefined;
}

export interface Scenario {
  name: string;
  method: RequestSpec['method'];
  /** Fixed, or from the ready line (the generated components' ids). */
  path: string | ((ready: ReadyLine) => string);
  server: 'baseline' | 'app';
  connections: number;
  durationSeconds: number;
  /** The baseline scenario its ratio is taken against; the first baseline scenario when absent. */
  baseline?: string;
  /** The bench server generates the activity data set (lib/activity-data.ts) only when a selected scenario says so. */
  needsActivityData?: true;
  /** Why the scenario cannot run in this tree; undefined when it can. */
  skipReason?: (clientDir: string | undefined) => string | undefined;
  /** Headers and body of every request, built once the server is up. */
  prepare?: (ready: ReadyLine) => Promise<Pick<RequestSpec, 'headers' | 'body'>>;
  /** What a correct answer looks like, checked once before the load. */
  expect: (response: ProbeResponse, ready: ReadyLine) => string | undefined;
  verifier?: (ready: ReadyLine) => Verifier;
  /** Started just before the load and stopped after it. */
  flood?: (ready: ReadyLine) => Promise<Flood>;
  judge: (load: LoadResult, context: JudgeContext) => Judgement;
}

type Basics = Pick<Scenario, 'name' | 'method' | 'path' | 'server' | 'connections' | 'durationSeconds'>;

/** A GET scenario's common fields: on the app, at the default connections and duration unless told. */
export function get(name: string, path: Scenario['path'], options: Partial<Pick<Scenario, 'server' | 'connections' | 'durationSeconds'>> = {}): Basics {
  return { name, method: 'GET', path, server: 'app', connections: SETTINGS.connections, durationSeconds: SETTINGS.durationSeconds, ...options };
}

/** GET …/with-votes of one of the generated components. */
export function withVotesOf(role: 'typical' | 'largest' | 'busiest'): (ready: ReadyLine) => string {
  return (ready) => withVotesPath(ready.comments[role].componentId);
}

export function unexpected(response: ProbeResponse): string {
  return `got ${response.status} ${response.contentType} ${response.body.slice(0, 80)}`;
}

export const info = (target: string, notes: string[] = []): Judgement => ({ target, gated: false, problems: [], notes });

/** The problem of a p99 at or over its target; none when under it. */
export function p99Problems(load: LoadResult, targetMs: number): string[] {
  return load.latencyMs.p99 < targetMs ? [] : [`p99 is ${fixed(load.latencyMs.p99, 2)} ms`];
}

/** A p99-only target at the scenario's concurrency. */
export function p99Judgement(load: LoadResult, targetMs: number, connections: number, notes: string[]): Judgement {
  return { target: `p99 < ${targetMs} ms at ${connections} connections`, gated: true, problems: p99Problems(load, targetMs), notes };
}

/** Truncated, not rounded, so that 49.96% never reads as a passing 50%. */
export function percentOf(ratio: number): string {
  return Number.isFinite(ratio) ? `${(Math.floor(ratio * 1000) / 10).toFixed(1)}%` : '—';
}

/** The targets-table row of a step that did not produce a result. */
export function unmeasured(name: string, target: string, outcome: Exclude<Step<unknown>, { status: 'done' }>): TargetResult {
  return { name, target, measured: outcome.message, status: outcome.status === 'skipped' ? 'SKIPPED' : 'FAIL' };
}

export function withVotesPath(componentId: string): string {
  return `/api/comments/${encodeURIComponent(componentId)}/with-votes`;
}

export function loginBody(ready: ReadyLine, who: SignedInAs = 'member'): Pick<RequestSpec, 'headers' | 'body'> {
  const { name, password, pin } = who === 'admin' ? ready.adminSignIn : ready.signIn;
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password, name, pin }) };
}

/** The seeded bench member, or the seeded admin (the admin panel's pages). */
type SignedInAs = 'member' | 'admin';

/** One real sign-in of each seeded member per bench server; its session cookie as a Cookie header value. */
const cookies = new WeakMap<ReadyLine, Map<SignedInAs, Promise<string>>>();
export function signedInCookie(ready: ReadyLine, who: SignedInAs = 'member'): Promise<string> {
  let byMember = cookies.get(ready);
  if (byMember === undefined) {
    byMember = new Map();
    cookies.set(ready, byMember);
  }
  let cookie = byMember.get(who);
  if (cookie === undefined) {
    cookie = signIn(ready, who);
    byMember.set(who, cookie);
  }
  return cookie;
}

async function signIn(ready: ReadyLine, who: SignedInAs): Promise<string> {
  const response = await probe(ready.appPort, '/api/login', 5000, { method: 'POST', ...loginBody(ready, who) });
  if (response?.status !== 200) throw new Error(`the ${who}'s sign-in for a session cookie failed (${response === undefined ? 'no response' : unexpected(response)})`);
  const token = cookieValue(response.setCookies, SESSION_COOKIE);
  if (token === undefined) throw new Error(`the ${who}'s sign-in answered 200 without a ${SESSION_COOKIE} cookie`);
  // Otherwise the admin panel would be audited as its 'Access Denied' card.
  if (who === 'admin' && currentUserSchema.safeParse(parseJson(response.body)).data?.permissions.canAdminister !== true) {
    throw new Error(`the admin's sign-in answered a member without the admin's permissions: ${response.body.slice(0, 120)}`);
  }
  return `${SESSION_COOKIE}=${token}`;
}

export async function signedInHeaders(ready: ReadyLine): Promise<Pick<RequestSpec, 'headers'>> {
  return { headers: { cookie: await signedInCookie(ready) } };
}
