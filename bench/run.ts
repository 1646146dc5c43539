/**
 * `npm run bench`: start-up time, throughput against a same-process baseline (health, SPA shell,
 * sign-in and a signed-in call), the comment calls on a generated data set (50,000 comments and
 * 250,000 votes, read against a same-bytes baseline, and written with a row count check), the main
 * page's time to interactive in Chromium, and bundle size,
 * checked against the project's performance targets. Prints tables, writes .bench/results.json
 * (and a copy under .bench/history/), and exits non-zero when a target fails or a step breaks.
 * See bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { z } from 'zod';
import { formatBundleReport, INITIAL_JS_LIMIT_KIB, kib, measureBundle, type BundleReport } from '../scripts/bundle-size.js';
import { ANALYZER_TARGETS, measureAnalyzer, type AnalyzerResult } from './lib/analyzer.js';
import { describeFlood, startFlood, type Flood, type FloodReport } from './lib/flood.js';
import { runLoad, type LoadOptions, type LoadResult } from './lib/load.js';
import { mainPageSkipReason, measureMainPage, type MainPageResult } from './lib/main-page.js';
import { cookieValue, killAllChildren, probe, startChild, stopChild, type Child, type ProbeResponse, type RequestSpec } from './lib/processes.js';
import { BENCH_SERVER_ENV, commentAuditSchema, readyLineSchema, SESSION_COOKIE, type CommentAudit, type ReadyLine } from './lib/protocol.js';
import type { BenchResults, MainPageBundle, PostVerification, ScenarioResult, Status, Step, TargetResult } from './lib/results.js';
import { measureStartup, type StartupResult } from './lib/startup.js';
import { fixed, formatTable, thousands } from './lib/table.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST_MAIN = path.join(ROOT, 'dist', 'server', 'main.js');
const DIST_APP = path.join(ROOT, 'dist', 'server', 'app.js');
const CLIENT_DIR = path.join(ROOT, 'dist', 'client');
const RESULTS_DIR = path.join(ROOT, '.bench');

const TARGETS = {
  startupMs: 2000,
  healthRatio: 0.5,
  healthP99Ms: 10,
  userP99Ms: 10,
  initialJsKiB: INITIAL_JS_LIMIT_KIB,
  /** The typical component's comments against the same bytes served from memory. */
  typicalRatio: 0.25,
  typicalP99Ms: 25,
  largestP99Ms: 200,
  postP99Ms: 25,
  mainPageInteractiveMs: 1500,
  mainPageInitialJsKiB: INITIAL_JS_LIMIT_KIB,
  /** A cached comment summary, and the server's memory with the NLP model loaded. */
  cachedSummaryP99Ms: 15,
  serverRssMiB: 300,
} as const;

/** The lazy chunk of the main page, and the diagram chunk it must not include. */
const MAIN_PAGE_CHUNK = 'review-home-page';
const DIAGRAM_CHUNK = 'incident-flow-diagram';

const DURATION_SECONDS = positiveNumberFromEnv('BENCH_DURATION', 8);
/** BENCH_SCENARIOS=<regex>: only the throughput scenarios whose name matches (and the baselines they are compared with). */
const SCENARIO_FILTER = scenarioFilterFromEnv();

const SETTINGS = {
  connections: 50,
  durationSeconds: DURATION_SECONDS,
  warmUpSeconds: 1,
  startupRuns: 5,
  /**
   * A login spends ~11 ms of one core in argon2id, so a 2-core machine answers a few hundred a
   * second at most: 5 connections keep every argon2 thread busy (at most 4, libuv's pool) without
   * a queue that would only add latency, and 5 s give ~1,000 samples. Not more than 5: every
   * attempt counts against the name before its PIN is checked (LOCK_AFTER_FAILURES = 5 in
   * src/server/modules/auth/lockout.ts), so a sixth sign-in of the same name in flight is refused
   * with 429 LOCKED_OUT, correct PIN or not (10 connections got 3–7 such answers a run).
   */
  loginConnections: 5,
  loginDurationSeconds: Math.min(DURATION_SECONDS, 5),
  /** The largest component and the POST: 20 connections. */
  commentConnections: 20,
  /** The scenarios reported without a target (busiest component, counts) run shorter. */
  infoDurationSeconds: Math.min(DURATION_SECONDS, 5),
  mainPageRuns: 5,
  mainPageTimeoutMs: 8000,
};

/**
 * The whole run must end; a hung step is killed with its children rather than left running. It
 * allows for the start-ups, the data generation (~60 s at worst), the browser and twelve load runs.
 */
const WATCHDOG_MS = 240_000 + SETTINGS.durationSeconds * 14 * 1000;

const givenDatabaseUrl = nonEmpty(process.env.BENCH_DATABASE_URL);
/** BENCH_DATABASE_FRESH=1: run on a new database next to BENCH_DATABASE_URL's, dropped afterwards. */
const freshDatabase = givenDatabaseUrl !== undefined && nonEmpty(process.env.BENCH_DATABASE_FRESH) === '1';
/** The database the servers use: BENCH_DATABASE_URL, or the fresh one made from it. Set in main(). */
let databaseUrl = givenDatabaseUrl;
let scratchDatabase: { name: string; adminUrl: string } | undefined;
const tempDirs: string[] = [];

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function positiveNumberFromEnv(name: string, fallback: number): number {
  const raw = nonEmpty(process.env[name]);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    process.stderr.write(`${name} must be a positive number of seconds (got "${raw}")\n`);
    process.exit(2);
  }
  return value;
}

function scenarioFilterFromEnv(): RegExp | undefined {
  const raw = nonEmpty(process.env.BENCH_SCENARIOS);
  if (raw === undefined) return undefined;
  try {
    return new RegExp(raw, 'i');
  } catch {
    process.stderr.write(`BENCH_SCENARIOS must be a regular expression (got "${raw}")\n`);
    process.exit(2);
  }
}

function makeTempDir(label: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `biggy-bench-${label}-`));
  tempDirs.push(dir);
  return dir;
}

function cleanUp(): void {
  killAllChildren();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** CREATE DATABASE biggy_bench_<random> through BENCH_DATABASE_URL; returns its URL. */
async function createScratchDatabase(adminUrl: string): Promise<{ name: string; url: string }> {
  const name = `biggy_bench_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  scratchDatabase = { name, adminUrl };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.href };
}

/** Drops the fresh database, if this run made one; after the servers are gone (FORCE ends any straggler). */
async function dropScratchDatabase(): Promise<void> {
  const scratch = scratchDatabase;
  if (scratch === undefined) return;
  scratchDatabase = undefined;
  const client = new pg.Client({ connectionString: scratch.adminUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query(`drop database if exists ${scratch.name} with (force)`);
  } catch (error) {
    process.stderr.write(`bench: could not drop the database ${scratch.name}: ${errorMessage(error)}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function say(text = ''): void {
  process.stdout.write(`${text}\n`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function step<T>(run: () => Promise<T>): Promise<Step<T>> {
  try {
    return { status: 'done', result: await run() };
  } catch (error) {
    return { status: 'error', message: errorMessage(error) };
  }
}

// ---------------------------------------------------------------------------------------------
// Start-up

async function startupStep(): Promise<Step<StartupResult>> {
  say(`Start-up: node dist/server/main.js, 1 warm-up start then ${SETTINGS.startupRuns} measured, spawn → first 200 of GET /api/health`);
  const result = await step(() =>
    measureStartup({
      mainFile: DIST_MAIN,
      dataDir: makeTempDir('startup'),
      databaseUrl,
      runs: SETTINGS.startupRuns,
      timeoutMs: 15_000,
      pollIntervalMs: 10,
    }),
  );
  if (result.status === 'done') {
    const { summaryMs, samplesMs, shutdownMs, warmUpMs } = result.result;
    say(
      `  min ${fixed(summaryMs.min, 0)} ms · median ${fixed(summaryMs.median, 0)} ms · max ${fixed(summaryMs.max, 0)} ms ` +
        `(runs: ${samplesMs.map((ms) => fixed(ms, 0)).join(', ')}; first start with migrations: ${fixed(warmUpMs, 0)} ms)`,
    );
    say(`  graceful shutdown (SIGTERM → exit, idle): median ${fixed(shutdownMs.median, 0)} ms, max ${fixed(shutdownMs.max, 0)} ms`);
  } else {
    say(`  ERROR: ${result.message}`);
  }
  say();
  return result;
}

// ---------------------------------------------------------------------------------------------
// Throughput

/** Start-up, seeding, argon2 timing and the comment data generation (well under 60 s on either database). */
const SERVER_READY_MS = 120_000;

async function startBenchServer(clientDir: string | undefined): Promise<{ child: Child; ready: ReadyLine }> {
  // Only what this run decides reaches the server: no stray BENCH_* from the shell.
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BENCH_')));
  env[BENCH_SERVER_ENV.dataDir] = makeTempDir('load');
  if (databaseUrl !== undefined) env[BENCH_SERVER_ENV.databaseUrl] = databaseUrl;
  if (clientDir !== undefined) env[BENCH_SERVER_ENV.clientDir] = clientDir;

  // --expose-gc: the server collects the garbage of its own data generation before listening (bench/server.ts).
  const child = startChild(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(ROOT, 'bench', 'server.ts')], { env, cwd: ROOT });
  const stdout = child.process.stdout;
  if (stdout === null) throw new Error('bench server has no stdout');
  const lines = createInterface({ input: stdout });
  try {
    const firstLine = await Promise.race([
      new Promise<string>((resolve) => lines.once('line', resolve)),
      child.exited.then((code) => Promise.reject(new Error(`bench server exited (${code}) before it was ready:\n${child.outputTail()}`))),
      new Promise<never>((_, reject) => {
        setTimeout(() => {
          reject(new Error(`bench server not ready within ${SERVER_READY_MS / 1000} s:\n${child.outputTail()}`));
        }, SERVER_READY_MS).unref();
      }),
    ]);
    const parsed = readyLineSchema.safeParse(parseJson(firstLine));
    if (!parsed.success) throw new Error(`bench server printed an unexpected line: ${firstLine}`);
    return { child, ready: parsed.data };
  } catch (error) {
    await stopChild(child, 2000);
    throw error;
  } finally {
    lines.close();
    // Keep draining stdout (into the output tail) so the server can never block on a full pipe.
    stdout.resume();
  }
}

interface Judgement {
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
interface Verifier {
  loadOptions: Pick<LoadOptions, 'bounded' | 'idReplacement' | 'onResponse'>;
  before: () => Promise<void>;
  after: (load: LoadResult) => Promise<PostVerification>;
}

interface JudgeContext {
  /** req/s over the req/s of the scenario's baseline (the plain one unless it names another). */
  ratio: number;
  ready: ReadyLine;
  verification: PostVerification | undefined;
  /** What the flooding member did during the load, for the scenarios that run one. */
  flood: FloodReport | undefined;
}

interface Scenario {
  name: string;
  method: RequestSpec['method'];
  /** Fixed, or from the ready line (the generated components' ids). */
  path: string | ((ready: ReadyLine) => string);
  server: 'baseline' | 'app';
  connections: number;
  durationSeconds: number;
  /** The baseline scenario its ratio is taken against; the first baseline scenario when absent. */
  baseline?: string;
  /** Why the scenario cannot run in this tree; undefined when it can. */
  skipReason?: (clientDir: string | undefined) => string | undefined;
  /** Headers and body of every request, built once the server is up (credentials, a session cookie). */
  prepare?: (ready: ReadyLine) => Promise<Pick<RequestSpec, 'headers' | 'body'>>;
  /** What a correct answer looks like, checked once before the load. */
  expect: (response: ProbeResponse, ready: ReadyLine) => string | undefined;
  /** A write scenario's own check of what the load wrote. */
  verifier?: (ready: ReadyLine) => Verifier;
  /** Started just before the load and stopped after it: one member flooding comments and summaries. */
  flood?: (ready: ReadyLine) => Promise<Flood>;
  judge: (load: LoadResult, context: JudgeContext) => Judgement;
}

function unexpected(response: ProbeResponse): string {
  return `got ${response.status} ${response.contentType} ${response.body.slice(0, 80)}`;
}

function loginBody(ready: ReadyLine): Pick<RequestSpec, 'headers' | 'body'> {
  const { name, password, pin } = ready.signIn;
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password, name, pin }) };
}

/** One real sign-in of the seeded member per bench server; its session cookie, as a Cookie header value. */
const cookies = new Map<number, Promise<string>>();
function signedInCookie(ready: ReadyLine): Promise<string> {
  let cookie = cookies.get(ready.appPort);
  if (cookie === undefined) {
    cookie = signIn(ready);
    cookies.set(ready.appPort, cookie);
  }
  return cookie;
}

async function signIn(ready: ReadyLine): Promise<string> {
  const response = await probe(ready.appPort, '/api/login', 5000, { method: 'POST', ...loginBody(ready) });
  if (response?.status !== 200) throw new Error(`the sign-in for a session cookie failed (${response === undefined ? 'no response' : unexpected(response)})`);
  const token = cookieValue(response.setCookies, SESSION_COOKIE);
  if (token === undefined) throw new Error(`the sign-in answered 200 without a ${SESSION_COOKIE} cookie`);
  return `${SESSION_COOKIE}=${token}`;
}

/** req/s that argon2id alone allows: as many verifications at once as it has threads for. */
function argon2BoundPerSecond(argon2: ReadyLine['argon2']): number {
  return (argon2.parallel * 1000) / argon2.verifyMs;
}

const info = (target: string, notes: string[] = []): Judgement => ({ target, gated: false, problems: [], notes });

const TYPICAL_BASELINE = 'baseline same bytes (typical with-votes)';

/** The POST body's content: ~200 characters with a tag autocannon replaces by a unique id on every request. */
const POST_CONTENT =
  'Bench: posted under load to check that every accepted comment is stored exactly once. Unique tag [<id>]. ' +
  'The rest of the text only gives it the length of an ordinary review comment.';

const createdCommentSchema = z.object({ id: z.number().int().positive(), componentId: z.string() });

function withVotesPath(componentId: string): string {
  return `/api/comments/${encodeURIComponent(componentId)}/with-votes`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The typical component's answer, byte for byte what the server fetched before listening. */
function sameBytes(response: ProbeResponse, ready: ReadyLine): string | undefined {
  const expected = ready.comments.sameBytes;
  if (response.status !== 200 || !response.contentType.startsWith('application/json')) return unexpected(response);
  if (sha256(response.body) !== expected.sha256) {
    return `the body (${Buffer.byteLength(response.body)} bytes) differs from the ${expected.bytes} bytes fetched before listening`;
  }
  return undefined;
}

function commentArray(response: ProbeResponse, count: number): string | undefined {
  if (response.status !== 200) return unexpected(response);
  const body = parseJson(response.body);
  return Array.isArray(body) && body.length === count ? undefined : `expected ${count} comments, got ${response.body.slice(0, 80)}`;
}

async function signedInHeaders(ready: ReadyLine): Promise<Pick<RequestSpec, 'headers'>> {
  return { headers: { cookie: await signedInCookie(ready) } };
}

/** The flooding member works on the component with the most comments: the slowest analysis. */
async function floodBusiest(ready: ReadyLine): Promise<Flood> {
  return startFlood({ port: ready.appPort, cookie: await signedInCookie(ready), componentId: ready.comments.busiest.componentId });
}

function floodJudgement(load: LoadResult, p99TargetMs: number, ready: ReadyLine, flood: FloodReport | undefined): Judgement {
  const problems: string[] = [];
  if (!(load.latencyMs.p99 < p99TargetMs)) problems.push(`p99 is ${fixed(load.latencyMs.p99, 2)} ms`);
  if (flood === undefined) problems.push('the flood did not run');
  else if (flood.comments.created === 0 || flood.summaries.ok === 0) problems.push(`the flood was refused (${JSON.stringify(flood)})`);
  const { busiest } = ready.comments;
  return {
    target: `p99 < ${p99TargetMs} ms while one member floods`,
    gated: true,
    problems,
    notes: flood === undefined ? [] : [describeFlood(flood, busiest.componentId, busiest.comments)],
    measured: `${thousands(load.requestsPerSecond)} req/s, p99 ${fixed(load.latencyMs.p99, 2)} ms`,
  };
}

async function fetchAudit(ready: ReadyLine, componentId: string, afterId: number): Promise<CommentAudit> {
  const query = new URLSearchParams({ componentId, afterId: String(afterId) });
  const response = await probe(ready.baselinePort, `${ready.comments.auditPath}?${query.toString()}`, 30_000);
  const parsed = commentAuditSchema.safeParse(parseJson(response?.body ?? ''));
  if (response?.status !== 200 || !parsed.success) throw new Error(`the comment audit failed (${response === undefined ? 'no response' : unexpected(response)})`);
  return parsed.data;
}

/** The largest value of a 32-bit integer column: an id bound above every row. */
const INT32_MAX = 2 ** 31 - 1;

/**
 * POST /api/comments: counts the comments before and after, and compares the rows added with the
 * 201 answers autocannon recorded (warm-up included, since its rows are in the count too), the ids
 * in those answers with the ids of the new rows, and the contents (each request's body carries a
 * unique tag) with the number of rows: a lost row, a row stored twice or an id given twice shows.
 */
function postVerifier(ready: ReadyLine): Verifier {
  const componentId = ready.comments.postComponentId;
  const responseIds: number[] = [];
  let unreadable = 0;
  let before: CommentAudit | undefined;
  return {
    loadOptions: {
      bounded: { warmUpRequestsPerConnection: 25, minRequestsPerConnection: 25, maxRequestsPerConnection: 5000 },
      idReplacement: true,
      onResponse: (status, body) => {
        if (status !== 201) return;
        const parsed = createdCommentSchema.safeParse(parseJson(body));
        if (parsed.success) responseIds.push(parsed.data.id);
        else unreadable += 1;
      },
    },
    before: async () => {
      before = await fetchAudit(ready, componentId, INT32_MAX);
    },
    after: async (load) => {
      if (before === undefined) throw new Error('the POST check has no count from before the load');
      const after = await fetchAudit(ready, componentId, before.maxId);
      const warmUp201 = load.warmUp.statusCodes['201'] ?? 0;
      const recorded201 = warmUp201 + (load.statusCodes['201'] ?? 0);
      const rowsAdded = after.total - before.total;
      const unique = new Set(responseIds);
      const rows = new Set(after.newIds);
      const idsMatchRows = unique.size === rows.size && [...unique].every((id) => rows.has(id));
      const problems: string[] = [];
      if (rowsAdded !== recorded201) problems.push(`${rowsAdded} rows added for ${recorded201} 201 answers (${rowsAdded > recorded201 ? 'duplicated or unanswered' : 'lost'} rows)`);
      if (after.newIds.length !== recorded201) problems.push(`${after.newIds.length} new rows of the bench member on ${componentId} for ${recorded201} 201 answers`);
      if (after.newDistinctContents !== after.newIds.length) problems.push(`${after.newIds.length - after.newDistinctContents} requests stored more than once`);
      if (after.distinctIds !== after.total) problems.push(`${after.total - after.distinctIds} duplicate ids in the comments table`);
      if (responseIds.length + unreadable !== recorded201) problems.push(`${responseIds.length + unreadable} 201 bodies seen for ${recorded201} 201 answers counted`);
      if (unreadable > 0) problems.push(`${unreadable} 201 answers without a comment id`);
      if (unique.size !== responseIds.length) problems.push(`${responseIds.length - unique.size} ids answered twice`);
      if (!idsMatchRows) problems.push('the ids answered are not the ids of the new rows');
      return {
        componentId,
        recorded201,
        warmUp201,
        rowsBefore: before.total,
        rowsAfter: after.total,
        rowsAdded,
        newRows: after.newIds.length,
        newDistinctContents: after.newDistinctContents,
        tableIdsUnique: after.distinctIds === after.total,
        responseIds: responseIds.length,
        uniqueResponseIds: unique.size,
        idsMatchRows,
        problems,
      };
    },
  };
}

const SCENARIOS: Scenario[] = [
  {
    name: 'baseline GET /baseline',
    method: 'GET',
    path: '/baseline',
    server: 'baseline',
    connections: SETTINGS.connections,
    durationSeconds: SETTINGS.durationSeconds,
    expect: (response) => (response.status === 200 && response.body === '{"ok":true}' ? undefined : unexpected(response)),
    judge: () => info('reference'),
  },
  {
    name: 'GET /api/health',
    method: 'GET',
    path: '/api/health',
    server: 'app',
    connections: SETTINGS.connections,
    durationSeconds: SETTINGS.durationSeconds,
    expect: (response) => (response.status === 200 && response.body.includes('"status":"ok"') ? undefined : unexpected(response)),
    judge: (load, { ratio }) => {
      const problems: string[] = [];
      if (!(ratio >= TARGETS.healthRatio)) problems.push(`req/s is ${percentOf(ratio)} of the baseline, under ${TARGETS.healthRatio * 100}%`);
      if (!(load.latencyMs.p99 < TARGETS.healthP99Ms)) problems.push(`p99 is ${fixed(load.latencyMs.p99, 2)} ms`);
      return { target: `≥ ${TARGETS.healthRatio * 100}% of baseline, p99 < ${TARGETS.healthP99Ms} ms`, gated: true, problems, notes: [] };
    },
  },
  {
    name: 'GET / (SPA shell)',
    method: 'GET',
    path: '/',
    server: 'app',
    connections: SETTINGS.connections,
    durationSeconds: SETTINGS.durationSeconds,
    skipReason: (clientDir) => (clientDir === undefined ? 'dist/client is missing' : undefined),
    expect: (response) => (response.status === 200 && response.contentType.startsWith('text/html') ? undefined : unexpected(response)),
    judge: () => info('—'),
  },
  {
    name: 'POST /api/login',
    method: 'POST',
    path: '/api/login',
    server: 'app',
    connections: SETTINGS.loginConnections,
    durationSeconds: SETTINGS.loginDurationSeconds,
    prepare: (ready) => Promise.resolve(loginBody(ready)),
    expect: (response) =>
      response.status === 200 && cookieValue(response.setCookies, SESSION_COOKIE) !== undefined && response.body.includes('"name":')
        ? undefined
        : unexpected(response),
    judge: (load, { ready }) => {
      const { argon2 } = ready;
      const bound = argon2BoundPerSecond(argon2);
      const share = load.requestsPerSecond / bound;
      const total = load.serverCpuMicrosPerRequest;
      const main = load.serverMainThreadCpuMicrosPerRequest;
      const split =
        total === undefined || main === undefined
          ? []
          : [
              `server CPU per login ${thousands(total)} µs: ${thousands(main)} µs on the event loop (request, 7 SQL statements of which 5 writes: ` +
                `rate-limit bucket, lock clear, session, device token, audit), ${thousands(total - main)} µs on other threads, ` +
                `nearly all argon2 on libuv's pool (${thousands(argon2.verifyMs * 1000)} µs a verify when idle)`,
            ];
      return {
        target: '0 non-2xx (argon2-bound: no req/s target)',
        gated: true,
        problems: [],
        notes: [
          `throughput is bounded by argon2id verification (~11 ms a hash per core, src/server/modules/auth/secrets.ts), not by the request path: ` +
            `every correct login verifies the PIN once, off the event loop`,
          `argon2id in this server before the load: verify ${fixed(argon2.verifyMs, 1)} ms (median of ${argon2.verifySamples}), hash ${fixed(argon2.hashMs, 1)} ms; ` +
            `${argon2.parallel} at once (min of ${argon2.cores} cores and libuv's pool of ${argon2.threadPoolSize}) → bound ${thousands(bound)} req/s; ` +
            `measured ${thousands(load.requestsPerSecond)} req/s = ${percentOf(share)} of it (the bound assumes the cores do nothing else; ` +
            `here they also run the event loop and autocannon)`,
          ...split,
        ],
        measured: `${thousands(load.requestsPerSecond)} req/s (${percentOf(share)} of the argon2 bound ${thousands(bound)}), p50 ${fixed(load.latencyMs.p50, 2)} ms, p99 ${fixed(load.latencyMs.p99, 2)} ms`,
        argon2: { ...argon2, boundRequestsPerSecond: Math.round(bound), shareOfBound: Math.round(share * 1000) / 1000 },
      };
    },
  },
  {
    name: 'GET /api/user (signed in)',
    method: 'GET',
    path: '/api/user',
    server: 'app',
    connections: SETTINGS.connections,
    durationSeconds: SETTINGS.durationSeconds,
    prepare: async (ready) => ({ headers: { cookie: await signedInCookie(ready) } }),
    expect: (response) => (response.status === 200 && response.body.includes('"name":') ? undefined : unexpected(response)),
    judge: (load, { ratio }) => {
      const problems: string[] = [];
      if (!(load.latencyMs.p99 < TARGETS.userP99Ms)) problems.push(`p99 is ${fixed(load.latencyMs.p99, 2)} ms`);
      return {
        target: `p99 < ${TARGETS.userP99Ms} ms at ${SETTINGS.connections} connections`,
        gated: true,
        problems,
        notes: [
          `${percentOf(ratio)} of the baseline's req/s; the session lookup is one indexed query per request (SessionStore.findSession: ` +
            `sessions.token_hash, the primary key, joined to members on members.id, theirs; last_seen_at is rewritten at most once a minute per session)`,
        ],
      };
    },
  },
  {
    name: TYPICAL_BASELINE,
    method: 'GET',
    path: (ready) => ready.comments.sameBytes.path,
    server: 'baseline',
    connections: SETTINGS.connections,
    durationSeconds: SETTINGS.durationSeconds,
    expect: sameBytes,
    judge: (_load, { ready }) =>
      info('reference for the typical component', [
        `the ${thousands(ready.comments.sameBytes.bytes)} bytes the app answered for GET ${withVotesPath(ready.comments.typical.componentId)} ` +
          `(fetched once through the app before listening), sent from memory as ${ready.comments.sameBytes.contentType}, without request logging like the plain baseline`,
      ]),
  },
  {
    name: 'GET with-votes typical (signed in)',
    method: 'GET',
    path: (ready) => withVotesPath(ready.comments.typical.componentId),
    server: 'app',
    connections: SETTINGS.connections,
    durationSeconds: SETTINGS.durationSeconds,
    baseline: TYPICAL_BASELINE,
    prepare: signedInHeaders,
    expect: sameBytes,
    judge: (load, { ratio, ready }) => {
      const problems: string[] = [];
      if (!(ratio >= TARGETS.typicalRatio)) problems.push(`req/s is ${percentOf(ratio)} of its same-bytes baseline, under ${TARGETS.typicalRatio * 100}%`);
      if (!(load.latencyMs.p99 < TARGETS.typicalP99Ms)) problems.push(`p99 is ${fixed(load.latencyMs.p99, 2)} ms`);
      const { typical, sameBytes: bytes } = ready.comments;
      return {
        target: `≥ ${TARGETS.typicalRatio * 100}% of same-bytes baseline, p99 < ${TARGETS.typicalP99Ms} ms`,
        gated: true,
        problems,
        notes: [
          `${typical.componentId}: ${thousands(typical.comments)} comments, ${thousands(typical.votes)} votes, ${thousands(bytes.bytes)} bytes a response; ` +
            `its share is of the same-bytes baseline's req/s (${TYPICAL_BASELINE}); the session lookup (one precompiled indexed query) and the cached JSON bytes; a comment or vote event drops the cache, and the next request makes the two queries (the comments, then their votes) again (ADR 0011)`,
        ],
        measured: `${thousands(load.requestsPerSecond)} req/s (${percentOf(ratio)} of its same-bytes baseline), p99 ${fixed(load.latencyMs.p99, 2)} ms`,
      };
    },
  },
  {
    name: 'GET with-votes largest (signed in)',
    method: 'GET',
    path: (ready) => withVotesPath(ready.comments.largest.componentId),
    server: 'app',
    connections: SETTINGS.commentConnections,
    durationSeconds: SETTINGS.durationSeconds,
    prepare: signedInHeaders,
    expect: (response, ready) => commentArray(response, ready.comments.largest.comments),
    judge: (load, { ready }) => {
      const problems: string[] = [];
      if (!(load.latencyMs.p99 < TARGETS.largestP99Ms)) problems.push(`p99 is ${fixed(load.latencyMs.p99, 2)} ms`);
      const { largest } = ready.comments;
      return {
        target: `p99 < ${TARGETS.largestP99Ms} ms at ${SETTINGS.commentConnections} connections`,
        gated: true,
        problems,
        notes: [`${largest.componentId}: ${thousands(largest.comments)} comments, ${thousands(largest.votes)} votes`],
      };
    },
  },
  {
    name: 'GET with-votes busiest (signed in)',
    method: 'GET',
    path: (ready) => withVotesPath(ready.comments.busiest.componentId),
    server: 'app',
    connections: SETTINGS.commentConnections,
    durationSeconds: SETTINGS.infoDurationSeconds,
    prepare: signedInHeaders,
    expect: (response, ready) => commentArray(response, ready.comments.busiest.comments),
    judge: (load, { ready }) => {
      const { busiest, components, comments } = ready.comments;
      return info(`— (the target's "largest" is 500; p99 < ${TARGETS.largestP99Ms} ms for comparison)`, [
        `${busiest.componentId}: ${thousands(busiest.comments)} comments, ${thousands(busiest.votes)} votes, the most of any component: ` +
          `${thousands(comments)} comments over ${components} commentable components put ~${thousands(busiest.comments)} on each of the others, ` +
          `more than the target's "largest" (500); p99 ${fixed(load.latencyMs.p99, 2)} ms ${load.latencyMs.p99 < TARGETS.largestP99Ms ? 'would meet' : 'would miss'} the largest's target`,
      ]);
    },
  },
  {
    name: 'GET /api/comments/counts (signed in)',
    method: 'GET',
    path: '/api/comments/counts',
    server: 'app',
    connections: SETTINGS.connections,
    durationSeconds: SETTINGS.infoDurationSeconds,
    prepare: signedInHeaders,
    expect: (response) => (response.status === 200 && response.body.startsWith('{') ? undefined : unexpected(response)),
    judge: (_load, { ready }) =>
      info('—', [
        `every main-page load asks for it once, and every open page again after each comment event: a count grouped by component over all ${thousands(ready.comments.comments)} comments`,
      ]),
  },
  {
    name: 'GET summary largest, cached (signed in)',
    method: 'GET',
    path: (ready) => `/api/comments/${ready.comments.largest.componentId}/summary?title=bench`,
    server: 'app',
    connections: SETTINGS.connections,
    durationSeconds: SETTINGS.durationSeconds,
    prepare: signedInHeaders,
    // The probe before the load makes the summary (the local analyzer over the 500 comments) and
    // stores it; the load then reads the stored one, as every reader after the first does.
    expect: (response, ready) => {
      if (response.status !== 200) return unexpected(response);
      const parsed = parseJson(response.body);
      const ids = typeof parsed === 'object' && parsed !== null && 'commentIds' in parsed && Array.isArray(parsed.commentIds) ? parsed.commentIds.length : -1;
      return ids === ready.comments.largest.comments ? undefined : `a summary of ${ids} comments, not ${ready.comments.largest.comments}`;
    },
    judge: (load, { ready }) => {
      const problems: string[] = [];
      if (!(load.latencyMs.p99 < TARGETS.cachedSummaryP99Ms)) problems.push(`p99 is ${fixed(load.latencyMs.p99, 2)} ms`);
      return {
        target: `p99 < ${TARGETS.cachedSummaryP99Ms} ms at ${SETTINGS.connections} connections`,
        gated: true,
        problems,
        notes: [
          `GET /api/comments/${ready.comments.largest.componentId}/summary: the summary of its ${thousands(ready.comments.largest.comments)} comments, made once by the local analyzer before the load ` +
            'and stored by input hash (ai_outputs); between comment events it is answered from memory (ADR 0011)',
        ],
      };
    },
  },
  {
    name: 'GET /api/health while a member floods',
    method: 'GET',
    path: '/api/health',
    server: 'app',
    connections: SETTINGS.connections,
    durationSeconds: SETTINGS.durationSeconds,
    expect: (response) => (response.status === 200 ? undefined : unexpected(response)),
    flood: floodBusiest,
    judge: (load, { ready, flood }) => floodJudgement(load, TARGETS.healthP99Ms, ready, flood),
  },
  {
    name: 'GET with-votes typical while a member floods',
    method: 'GET',
    path: (ready) => withVotesPath(ready.comments.typical.componentId),
    server: 'app',
    connections: SETTINGS.connections,
    durationSeconds: SETTINGS.durationSeconds,
    prepare: signedInHeaders,
    expect: sameBytes,
    flood: floodBusiest,
    judge: (load, { ready, flood }) => floodJudgement(load, TARGETS.typicalP99Ms, ready, flood),
  },
  {
    name: 'POST /api/comments (signed in)',
    method: 'POST',
    path: '/api/comments',
    server: 'app',
    connections: SETTINGS.commentConnections,
    durationSeconds: SETTINGS.durationSeconds,
    prepare: async (ready) => ({
      headers: { cookie: await signedInCookie(ready), 'content-type': 'application/json' },
      body: JSON.stringify({ componentId: ready.comments.postComponentId, content: POST_CONTENT }),
    }),
    expect: (response) => (response.status === 201 && createdCommentSchema.safeParse(parseJson(response.body)).success ? undefined : unexpected(response)),
    verifier: postVerifier,
    judge: (load, { verification }) => {
      const problems: string[] = [];
      if (!(load.latencyMs.p99 < TARGETS.postP99Ms)) problems.push(`p99 is ${fixed(load.latencyMs.p99, 2)} ms`);
      if (verification === undefined) problems.push('the rows were not checked');
      else problems.push(...verification.problems);
      const check =
        verification === undefined
          ? []
          : [
              `rows: ${thousands(verification.rowsBefore)} → ${thousands(verification.rowsAfter)} (+${thousands(verification.rowsAdded)}) for ` +
                `${thousands(verification.recorded201)} 201 answers recorded by autocannon (warm-up ${thousands(verification.warmUp201)} + measured ${thousands(load.statusCodes['201'] ?? 0)}); ` +
                `${thousands(verification.responseIds)} ids in the answers, ${thousands(verification.uniqueResponseIds)} distinct, ${verification.idsMatchRows ? 'the same set as' : 'NOT the same set as'} ` +
                `the ${thousands(verification.newRows)} new rows (${thousands(verification.newDistinctContents)} distinct contents); ids unique in the table: ${verification.tableIdsUnique ? 'yes' : 'NO'}`,
            ];
      return {
        target: `p99 < ${TARGETS.postP99Ms} ms at ${SETTINGS.commentConnections} connections; rows = 201s`,
        gated: true,
        problems,
        notes: [
          ...check,
          `a fixed number of requests per connection (from the warm-up's rate, for ~${SETTINGS.durationSeconds} s) rather than a duration, so that none is in flight when the run ends; ` +
            `each body carries a unique tag (autocannon's idReplacement); each answer is one insert and one event (LISTEN/NOTIFY on PostgreSQL)`,
        ],
        measured:
          `${thousands(load.requestsPerSecond)} req/s, p99 ${fixed(load.latencyMs.p99, 2)} ms; ` +
          (verification === undefined ? 'rows not checked' : `+${thousands(verification.rowsAdded)} rows for ${thousands(verification.recorded201)} 201s`),
      };
    },
  },
];

interface ThroughputOutcome {
  throughput: Step<ScenarioResult[]>;
  comments: ReadyLine['comments'] | undefined;
  mainPage: Step<MainPageResult>;
  /** Peak resident memory of the server process over the throughput scenarios, in MiB. */
  serverPeakRssMiB: number | undefined;
}

function pathOf(scenario: Scenario, ready: ReadyLine): string {
  return typeof scenario.path === 'string' ? scenario.path : scenario.path(ready);
}

function describeCommentData(comments: ReadyLine['comments']): string[] {
  const seconds = (ms: number) => `${fixed(ms / 1000, 1)} s`;
  const { phasesMs, typical, largest, busiest, contentLength } = comments;
  const share = (entry: ReadyLine['comments']['typical']) => `${entry.componentId} ${thousands(entry.comments)} comments / ${thousands(entry.votes)} votes`;
  return [
    `  comment data: ${thousands(comments.members)} members, ${thousands(comments.comments)} comments, ${thousands(comments.votes)} votes over ${comments.components} components, ` +
      `generated in ${seconds(comments.generationMs)} (members ${seconds(phasesMs.members)}, clear ${seconds(phasesMs.clear)}, comments ${seconds(phasesMs.comments)}, ` +
      `votes ${seconds(phasesMs.votes)}${phasesMs.analyze > 0 ? `, analyze ${seconds(phasesMs.analyze)}` : ''})` +
      (comments.cleared > 0 ? `; ${thousands(comments.cleared)} comments of an earlier run removed first` : ''),
    `  typical ${share(typical)}; largest ${share(largest)}; busiest ${share(busiest)}; texts ${contentLength.min}–${contentLength.max} characters (mean ${contentLength.mean}); ` +
      `POST into ${comments.postComponentId}`,
  ];
}

async function mainPageStep(clientDir: string | undefined, ready: ReadyLine): Promise<Step<MainPageResult>> {
  const reason = mainPageSkipReason(clientDir);
  if (reason !== undefined) {
    say(`Main page: ${reason}: not measured`);
    return { status: 'skipped', message: reason };
  }
  say(
    `Main page: Chromium (playwright-core), ${SETTINGS.mainPageRuns} loads after 1 unmeasured, each in a new context (empty cache) with the session cookie; ` +
      'navigation start → the first card with its Comment button laid out and the diagram boxes rendered',
  );
  const result = await step(async () => {
    const cookie = await signedInCookie(ready);
    return measureMainPage({
      baseUrl: `http://127.0.0.1:${ready.appPort}`,
      sessionCookie: { name: SESSION_COOKIE, value: cookie.slice(cookie.indexOf('=') + 1) },
      runs: SETTINGS.mainPageRuns,
      timeoutMs: SETTINGS.mainPageTimeoutMs,
    });
  });
  if (result.status === 'done') {
    const { loads, summaryMs, milestone, fallbackReason, chromium } = result.result;
    const ms = (value: number | null) => (value === null ? '—' : fixed(value, 0));
    say(`  Chromium ${chromium}; milestone: ${milestone}${fallbackReason === undefined ? '' : ` (${fallbackReason})`}`);
    say(
      formatTable(
        ['load', 'interactive ms', 'first card ms', 'diagram ms', 'FCP ms', 'DOMContentLoaded ms', 'load event ms'],
        loads.map((load, index) => [
          String(index + 1),
          fixed(load.interactiveMs, 0),
          ms(load.cardMs),
          ms(load.diagramMs),
          ms(load.firstContentfulPaintMs),
          ms(load.domContentLoadedMs),
          ms(load.loadMs),
        ]),
        ['right', 'right', 'right', 'right', 'right', 'right', 'right'],
      )
        .split('\n')
        .map((line) => `  ${line}`)
        .join('\n'),
    );
    say(`  median ${fixed(summaryMs.median, 0)} ms (min ${fixed(summaryMs.min, 0)}, max ${fixed(summaryMs.max, 0)}); target < ${TARGETS.mainPageInteractiveMs} ms`);
    const median = [...loads].sort((a, b) => a.interactiveMs - b.interactiveMs)[Math.floor((loads.length - 1) / 2)];
    if (median !== undefined) {
      const shortName = (name: string) => name.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.(js|css)$/, '.$1');
      say(
        `  the median load's requests, ms from navigation start (start–end): document –${ms(median.documentMs)}, ` +
          median.resources.map((entry) => `${shortName(entry.name)} ${entry.start}–${entry.end}`).join(', '),
      );
      const busy = median.longTasks.reduce((sum, task) => sum + task.duration, 0);
      say(
        `  its main-thread tasks over 50 ms before the milestone: ${median.longTasks.length}, ${fixed(busy, 0)} ms in all` +
          (median.longTasks.length === 0 ? '' : ` (start+duration: ${median.longTasks.map((task) => `${task.start}+${task.duration}`).join(', ')})`),
      );
    }
  } else {
    say(`  ERROR: ${result.message}`);
  }
  say();
  return result;
}

/** The scenarios BENCH_SCENARIOS selects, with the plain baseline and any baseline they name. */
function selectedScenarios(): Scenario[] {
  const filter = SCENARIO_FILTER;
  if (filter === undefined) return SCENARIOS;
  const chosen = SCENARIOS.filter((scenario) => filter.test(scenario.name));
  const baselines = new Set(chosen.map((scenario) => scenario.baseline).filter((name) => name !== undefined));
  return SCENARIOS.filter((scenario, index) => index === 0 || chosen.includes(scenario) || baselines.has(scenario.name));
}

async function throughputStep(clientDir: string | undefined): Promise<ThroughputOutcome> {
  const scenarios = selectedScenarios().filter((scenario) => scenario.skipReason?.(clientDir) === undefined);
  if (SCENARIO_FILTER !== undefined) say(`BENCH_SCENARIOS=${SCENARIO_FILTER.source}: ${scenarios.map((scenario) => scenario.name).join(', ')}`);
  const others = scenarios.filter((scenario) => scenario.connections !== SETTINGS.connections || scenario.durationSeconds !== SETTINGS.durationSeconds);
  say(
    `Throughput: autocannon, ${SETTINGS.connections} connections, ${SETTINGS.warmUpSeconds} s warm-up + ${SETTINGS.durationSeconds} s per scenario` +
      others.map((scenario) => ` (${scenario.name}: ${scenario.connections} connections, ${scenario.durationSeconds} s)`).join('') +
      ', app and baseline in one server process (bench/server.ts)',
  );
  for (const scenario of SCENARIOS) {
    const reason = scenario.skipReason?.(clientDir);
    if (reason !== undefined) say(`  ${reason}: the ${scenario.name} scenario is skipped`);
  }

  let server: { child: Child; ready: ReadyLine };
  try {
    server = await startBenchServer(clientDir);
  } catch (error) {
    say(`  ERROR: ${errorMessage(error)}`);
    say();
    const message = errorMessage(error);
    return { throughput: { status: 'error', message }, comments: undefined, mainPage: { status: 'error', message: `no bench server: ${message}` }, serverPeakRssMiB: undefined };
  }
  const { ready } = server;
  say(`  database: ${ready.dialect}; logging: ${ready.logging}`);
  say(
    `  argon2id (the app's hashPin/verifyPin, timed in the server before the load): hash ${fixed(ready.argon2.hashMs, 1)} ms, ` +
      `verify ${fixed(ready.argon2.verifyMs, 1)} ms; ${ready.argon2.parallel} at once → login bound ${thousands(argon2BoundPerSecond(ready.argon2))} req/s`,
  );
  for (const line of describeCommentData(ready.comments)) say(line);
  const memory = sampleRss(server.child.process.pid);
  const result = await step(async () => {
    const loads: LoadEntry[] = [];
    for (const scenario of scenarios) {
      const port = scenario.server === 'baseline' ? ready.baselinePort : ready.appPort;
      const pathname = pathOf(scenario, ready);
      const request: RequestSpec = { method: scenario.method, ...(await scenario.prepare?.(ready)) };
      const response = await probe(port, pathname, 5000, request);
      const problem = response === undefined ? 'no response' : scenario.expect(response, ready);
      if (problem !== undefined) throw new Error(`${scenario.name}: unexpected answer before the load (${problem})`);
      const verifier = scenario.verifier?.(ready);
      await verifier?.before();
      process.stdout.write(`  ${scenario.name} … `);
      const flooding = await scenario.flood?.(ready);
      const load = await runLoad({
        url: `http://127.0.0.1:${port}${pathname}`,
        request,
        connections: scenario.connections,
        durationSeconds: scenario.durationSeconds,
        warmUpSeconds: SETTINGS.warmUpSeconds,
        serverPid: server.child.process.pid,
        ...verifier?.loadOptions,
      });
      const verification = await verifier?.after(load);
      const flood = await flooding?.stop();
      say(`${thousands(load.requestsPerSecond)} req/s`);
      loads.push({ scenario, path: pathname, load, verification, flood });
    }
    return judgeScenarios(loads, ready);
  });
  if (result.status === 'done') {
    say();
    say(throughputTable(result.result));
  } else {
    say(`  ERROR: ${result.message}`);
  }
  say();
  const serverPeakRssMiB = memory.stop();
  if (serverPeakRssMiB !== undefined) say(`  server memory: peak resident ${fixed(serverPeakRssMiB, 0)} MiB over the scenarios (sampled every 100 ms)`);
  // The page is measured on the same server, once the load has stopped.
  const mainPage = await mainPageStep(clientDir, ready);
  const stopped = await stopChild(server.child, 5000);
  if (!stopped.graceful) say('  warning: the bench server ignored SIGTERM and was killed');
  return { throughput: result, comments: ready.comments, mainPage, serverPeakRssMiB };
}

/** VmRSS of a process from /proc, in MiB; undefined where /proc is not there. */
function residentMiB(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? undefined : Number(match[1]) / 1024;
  } catch {
    return undefined;
  }
}

function sampleRss(pid: number | undefined): { stop: () => number | undefined } {
  let peak: number | undefined;
  const sample = () => {
    const now = pid === undefined ? undefined : residentMiB(pid);
    if (now !== undefined) peak = Math.max(peak ?? 0, now);
  };
  sample();
  const timer = setInterval(sample, 100);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

interface LoadEntry {
  scenario: Scenario;
  path: string;
  load: LoadResult;
  verification: PostVerification | undefined;
  flood: FloodReport | undefined;
}

/** Truncated, not rounded, so that 49.96% never reads as a passing 50%. */
function percentOf(ratio: number): string {
  return Number.isFinite(ratio) ? `${(Math.floor(ratio * 1000) / 10).toFixed(1)}%` : '—';
}

function judgeScenarios(loads: LoadEntry[], ready: ReadyLine): ScenarioResult[] {
  const firstBaseline = loads.find((entry) => entry.scenario.server === 'baseline');
  return loads.map(({ scenario, path: pathname, load, verification, flood }) => {
    const baseline = scenario.baseline === undefined ? firstBaseline : loads.find((entry) => entry.scenario.name === scenario.baseline);
    const ratio = load.requestsPerSecond / (baseline?.load.requestsPerSecond ?? Number.NaN);
    const judgement = scenario.judge(load, { ratio, ready, verification, flood });
    const problems: string[] = [];
    // A run with failed requests measures the failure, not the route: it never passes.
    if (load.errors > 0 || load.non2xx > 0 || load.timeouts > 0) {
      problems.push(`${load.errors} errors, ${load.timeouts} timeouts, ${load.non2xx} non-2xx (${JSON.stringify(load.statusCodes)})`);
    }
    problems.push(...judgement.problems);
    const status: Status = problems.length > 0 ? 'FAIL' : judgement.gated ? 'PASS' : 'INFO';
    return {
      name: scenario.name,
      method: scenario.method,
      path: pathname,
      server: scenario.server,
      load,
      ratioToBaseline: ratio,
      ...(baseline === undefined || scenario.server === 'baseline' ? {} : { baselineName: baseline.scenario.name }),
      target: judgement.target,
      status,
      notes: [...problems, ...judgement.notes],
      ...(judgement.measured === undefined ? {} : { measured: judgement.measured }),
      ...(judgement.argon2 === undefined ? {} : { argon2: judgement.argon2 }),
      ...(verification === undefined ? {} : { verification }),
    };
  });
}

function throughputTable(results: ScenarioResult[]): string {
  const table = formatTable(
    ['scenario', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'vs baseline', 'CPU µs/req', 'target', 'result'],
    results.map((result) => [
      result.name,
      String(result.load.connections),
      thousands(result.load.requestsPerSecond),
      fixed(result.load.latencyMs.p50, 2),
      fixed(result.load.latencyMs.p99, 2),
      // A share of the baseline means something only at the baseline's concurrency.
      result.load.connections === SETTINGS.connections
        ? `${percentOf(result.ratioToBaseline)}${result.baselineName === TYPICAL_BASELINE ? ' ¹' : ''}`
        : '—',
      result.load.serverCpuMicrosPerRequest === undefined ? '—' : thousands(result.load.serverCpuMicrosPerRequest),
      result.target,
      result.status === 'INFO' ? 'ok' : result.status,
    ]),
    ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left', 'left'],
  );
  const notes = results.flatMap((result) => result.notes.map((note) => `  ${result.name}: ${note}`));
  const footnote = results.some((result) => result.baselineName === TYPICAL_BASELINE) ? [`  ¹ of ${TYPICAL_BASELINE}, not of baseline GET /baseline`] : [];
  return [table, ...footnote, ...notes].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Targets and results

/**
 * The main page's initial JavaScript: the entry and the review page's lazy chunk with its static
 * imports (the route the page is), without the diagram chunk, which the page requests lazily.
 */
function mainPageBundle(bundle: BundleReport): Step<MainPageBundle> {
  if (bundle.status !== 'measured') return { status: 'skipped', message: bundle.message };
  const page = bundle.lazyChunks.find((chunk) => chunk.name === MAIN_PAGE_CHUNK);
  if (page === undefined) return { status: 'error', message: `the manifest has no lazy chunk named ${MAIN_PAGE_CHUNK}` };
  const diagram = bundle.lazyChunks.find((chunk) => chunk.name === DIAGRAM_CHUNK);
  const entryFiles = new Set(bundle.entries.flatMap((entry) => entry.js.files));
  const pageFiles = new Set([...entryFiles, ...page.js.files]);
  const diagramFile = diagram === undefined ? undefined : diagram.js.files[0];
  const diagramAdds = diagram === undefined ? undefined : diagram.js.files.filter((file) => !pageFiles.has(file));
  return {
    status: 'done',
    result: {
      chunk: page.key,
      gzipBytes: page.withInitialGzipBytes,
      files: pageFiles.size,
      diagramChunk: diagram?.key ?? null,
      diagramIncluded: diagramFile !== undefined && pageFiles.has(diagramFile),
      diagramAddsFiles: diagramAdds?.length ?? 0,
      withinLimit: page.withInitialGzipBytes <= TARGETS.mainPageInitialJsKiB * 1024,
    },
  };
}

function formatMainPageBundle(bundle: Step<MainPageBundle>): string {
  if (bundle.status !== 'done') return `Main page initial JavaScript: NOT MEASURED: ${bundle.message}`;
  const { gzipBytes, files, diagramChunk, diagramIncluded, diagramAddsFiles } = bundle.result;
  return (
    `Main page initial JavaScript (entry + ${MAIN_PAGE_CHUNK} and its static imports, ${files} files): ${kib(gzipBytes)} gzip; ` +
    `target ≤ ${TARGETS.mainPageInitialJsKiB} KiB: ${bundle.result.withinLimit ? 'PASS' : 'FAIL'}; ` +
    (diagramChunk === null
      ? `no ${DIAGRAM_CHUNK} chunk in this build`
      : diagramIncluded
        ? `the ${DIAGRAM_CHUNK} chunk is INCLUDED (imported statically)`
        : `${DIAGRAM_CHUNK} not included (lazy; it adds ${diagramAddsFiles} more file(s), see its row above)`)
  );
}

function evaluateTargets(
  startup: Step<StartupResult>,
  throughput: Step<ScenarioResult[]>,
  bundle: ReturnType<typeof measureBundle>,
  pageBundle: Step<MainPageBundle>,
  mainPage: Step<MainPageResult>,
  analyzer: Step<AnalyzerResult>,
  serverPeakRssMiB: number | undefined,
): TargetResult[] {
  const targets: TargetResult[] = [];

  if (analyzer.status === 'done') {
    const { summary, narrative } = analyzer.result;
    targets.push({
      name: `local analyzer: summary of ${summary.comments} comments`,
      target: `< ${ANALYZER_TARGETS.summaryMs} ms`,
      measured: `median ${fixed(summary.medianMs, 1)} ms of 7, first call ${fixed(summary.firstMs, 1)} ms, max ${fixed(summary.maxMs, 1)} ms`,
      status: summary.medianMs < ANALYZER_TARGETS.summaryMs && summary.firstMs < ANALYZER_TARGETS.summaryMs ? 'PASS' : 'FAIL',
    });
    targets.push({
      name: `local analyzer: narrative of ${narrative.suggestions} suggestions`,
      target: `< ${ANALYZER_TARGETS.narrativeMs} ms`,
      measured: `median ${fixed(narrative.medianMs, 1)} ms of 7, first call ${fixed(narrative.firstMs, 1)} ms, max ${fixed(narrative.maxMs, 1)} ms`,
      status: narrative.medianMs < ANALYZER_TARGETS.narrativeMs && narrative.firstMs < ANALYZER_TARGETS.narrativeMs ? 'PASS' : 'FAIL',
    });
  } else {
    targets.push({ name: 'local analyzer', target: `< ${ANALYZER_TARGETS.summaryMs} ms`, measured: analyzer.message, status: analyzer.status === 'skipped' ? 'SKIPPED' : 'FAIL' });
  }
  targets.push({
    name: 'server memory (NLP model loaded)',
    target: `peak resident ≤ ${TARGETS.serverRssMiB} MiB`,
    measured: serverPeakRssMiB === undefined ? 'not measured' : `${fixed(serverPeakRssMiB, 0)} MiB`,
    status: serverPeakRssMiB === undefined ? 'FAIL' : serverPeakRssMiB <= TARGETS.serverRssMiB ? 'PASS' : 'FAIL',
  });

  // The median of the starts: one slow start on a shared 2-core machine is noise, not the server.
  targets.push(
    startup.status === 'done'
      ? {
          name: 'start-up to first /api/health 200',
          target: `< ${TARGETS.startupMs} ms (median of ${SETTINGS.startupRuns})`,
          measured: `median ${fixed(startup.result.summaryMs.median, 0)} ms (max ${fixed(startup.result.summaryMs.max, 0)} ms)`,
          status: startup.result.summaryMs.median < TARGETS.startupMs ? 'PASS' : 'FAIL',
        }
      : { name: 'start-up to first /api/health 200', target: `< ${TARGETS.startupMs} ms`, measured: startup.message, status: 'FAIL' },
  );

  if (throughput.status === 'done') {
    for (const scenario of throughput.result) {
      // Scenarios without a target appear here only when their requests failed.
      if (scenario.status === 'INFO') continue;
      targets.push({
        name: scenario.name,
        target: scenario.target,
        measured:
          scenario.measured ??
          `${thousands(scenario.load.requestsPerSecond)} req/s (${percentOf(scenario.ratioToBaseline)} of baseline), p99 ${fixed(scenario.load.latencyMs.p99, 2)} ms`,
        status: scenario.status,
      });
    }
  } else {
    targets.push({ name: 'GET /api/health throughput', target: `≥ ${TARGETS.healthRatio * 100}% of baseline, p99 < ${TARGETS.healthP99Ms} ms`, measured: throughput.message, status: 'FAIL' });
  }

  const bundleTarget = `≤ ${TARGETS.initialJsKiB} KiB gzip`;
  if (bundle.status === 'measured') {
    targets.push({ name: 'initial JavaScript', target: bundleTarget, measured: kib(bundle.initialJsGzipBytes), status: bundle.withinLimit ? 'PASS' : 'FAIL' });
  } else {
    // No client build at all is a server-only tree (bench run by hand); a client built without a
    // manifest is a real build whose figure cannot be checked, and that fails.
    targets.push({ name: 'initial JavaScript', target: bundleTarget, measured: bundle.message, status: bundle.status === 'missing-client' ? 'SKIPPED' : 'FAIL' });
  }

  const pageBundleTarget = `≤ ${TARGETS.mainPageInitialJsKiB} KiB gzip, without ${DIAGRAM_CHUNK}`;
  if (pageBundle.status === 'done') {
    const { gzipBytes, withinLimit, diagramIncluded } = pageBundle.result;
    targets.push({
      name: 'main page initial JavaScript',
      target: pageBundleTarget,
      measured: `${kib(gzipBytes)} (entry + ${MAIN_PAGE_CHUNK})${diagramIncluded ? `, ${DIAGRAM_CHUNK} included` : ''}`,
      status: withinLimit && !diagramIncluded ? 'PASS' : 'FAIL',
    });
  } else {
    targets.push({ name: 'main page initial JavaScript', target: pageBundleTarget, measured: pageBundle.message, status: pageBundle.status === 'skipped' ? 'SKIPPED' : 'FAIL' });
  }

  const interactiveTarget = `median of ${SETTINGS.mainPageRuns} < ${TARGETS.mainPageInteractiveMs} ms`;
  if (mainPage.status === 'done') {
    const { summaryMs, milestone, fallbackReason } = mainPage.result;
    targets.push({
      name: 'main page interactive (Chromium)',
      target: interactiveTarget,
      measured:
        `median ${fixed(summaryMs.median, 0)} ms (max ${fixed(summaryMs.max, 0)} ms) to ${milestone === 'card+diagram' ? 'first card + diagram' : milestone}` +
        (fallbackReason === undefined ? '' : ' (fallback milestone)'),
      status: summaryMs.median < TARGETS.mainPageInteractiveMs ? 'PASS' : 'FAIL',
    });
  } else {
    targets.push({ name: 'main page interactive (Chromium)', target: interactiveTarget, measured: mainPage.message, status: mainPage.status === 'skipped' ? 'SKIPPED' : 'FAIL' });
  }
  return targets;
}

/** Share of all cores busy over `ms`, from the kernel's counters (load average lags by a minute). */
async function cpuBusyShare(ms: number): Promise<number> {
  const totals = () =>
    os.cpus().reduce(
      (sum, cpu) => {
        const { user, nice, sys, irq, idle } = cpu.times;
        return { busy: sum.busy + user + nice + sys + irq, all: sum.all + user + nice + sys + irq + idle };
      },
      { busy: 0, all: 0 },
    );
  const before = totals();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = totals();
  const all = after.all - before.all;
  return all > 0 ? (after.busy - before.busy) / all : 0;
}

function gitState(): { commit: string; dirty: boolean } {
  const git = (args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', timeout: 5000 });
  const head = git(['rev-parse', '--short', 'HEAD']);
  const status = git(['status', '--porcelain', '--untracked-files=no']);
  return { commit: head.status === 0 ? head.stdout.trim() : 'unknown', dirty: status.status === 0 && status.stdout.trim() !== '' };
}

function writeResults(results: BenchResults): string {
  mkdirSync(path.join(RESULTS_DIR, 'history'), { recursive: true });
  const file = path.join(RESULTS_DIR, 'results.json');
  const text = `${JSON.stringify(results, null, 2)}\n`;
  writeFileSync(file, text);
  const stamp = results.startedAt.replace(/[:.]/g, '-');
  writeFileSync(path.join(RESULTS_DIR, 'history', `${stamp}-${results.environment.commit}.json`), text);
  return file;
}

// ---------------------------------------------------------------------------------------------

async function analyzerStep(): Promise<Step<AnalyzerResult>> {
  say(`Local analyzer (dist/server/ai-providers/local): the demo comments repeated to ${ANALYZER_TARGETS.summaryComments}, and ${ANALYZER_TARGETS.narrativeSuggestions} suggestions, in this process`);
  const result = await step(measureAnalyzer);
  if (result.status === 'done') {
    const { modelLoadMs, summary, narrative, suggestions } = result.result;
    say(`  model load and first tiny call ${fixed(modelLoadMs, 0)} ms`);
    say(`  summary of ${summary.comments} comments: first ${fixed(summary.firstMs, 1)} ms, median ${fixed(summary.medianMs, 1)} ms, max ${fixed(summary.maxMs, 1)} ms`);
    say(`  narrative of ${narrative.suggestions} suggestions: first ${fixed(narrative.firstMs, 1)} ms, median ${fixed(narrative.medianMs, 1)} ms, max ${fixed(narrative.maxMs, 1)} ms`);
    say(`  suggestions from ${suggestions.comments} comments (information): median ${fixed(suggestions.medianMs, 1)} ms`);
  } else {
    say(`  ERROR: ${result.message}`);
  }
  say();
  return result;
}

async function main(): Promise<number> {
  const startedAt = new Date();
  if (!existsSync(DIST_MAIN) || !existsSync(DIST_APP)) {
    say(`${path.relative(ROOT, DIST_MAIN)} is missing: run \`npm run bench\` (which builds first) or \`npm run build\`.`);
    return 2;
  }
  const clientDir = existsSync(path.join(CLIENT_DIR, 'index.html')) ? CLIENT_DIR : undefined;
  if (freshDatabase) {
    const scratch = await createScratchDatabase(givenDatabaseUrl);
    databaseUrl = scratch.url;
    say(`PostgreSQL: created the database ${scratch.name} for this run (BENCH_DATABASE_FRESH=1); it is dropped at the end`);
  }
  const git = gitState();
  const cpus = os.cpus();
  say(
    `bench: node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, commit ${git.commit}${git.dirty ? ' (uncommitted changes)' : ''}, ` +
      `database ${databaseUrl === undefined ? 'SQLite' : 'PostgreSQL (BENCH_DATABASE_URL)'}`,
  );
  // The server and autocannon each need a core: anything else running makes the figures noise.
  const busyBefore = await cpuBusyShare(1000);
  const loadBefore = os.loadavg()[0] ?? 0;
  if (busyBefore > 0.2) {
    say(
      `WARNING: the machine is busy before the run (${fixed(busyBefore * 100, 0)}% of the CPU in use, load average ${fixed(loadBefore, 2)}); ` +
        'the figures below are not comparable with a run on an idle machine.',
    );
  }
  say();

  const startup = await startupStep();
  const analyzer = await analyzerStep();
  const { throughput, comments, mainPage, serverPeakRssMiB } = await throughputStep(clientDir);

  const bundle = measureBundle(CLIENT_DIR);
  say(formatBundleReport(bundle));
  const pageBundle = mainPageBundle(bundle);
  say(formatMainPageBundle(pageBundle));
  say();

  const targets = evaluateTargets(startup, throughput, bundle, pageBundle, mainPage, analyzer, serverPeakRssMiB);
  say('Targets');
  say(
    formatTable(
      ['target', 'goal', 'measured', 'result'],
      targets.map((target) => [target.name, target.target, target.measured.split('\n')[0] ?? '', target.status]),
      ['left', 'left', 'left', 'left'],
    ),
  );
  const passed = targets.every((target) => target.status !== 'FAIL');

  const results: BenchResults = {
    schemaVersion: 1,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    environment: {
      node: process.version,
      platform: `${process.platform} ${os.release()} ${process.arch}`,
      cpus: cpus[0]?.model.trim() ?? 'unknown',
      cpuCount: cpus.length,
      totalMemoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
      commit: git.commit,
      dirty: git.dirty,
      database: databaseUrl === undefined ? 'sqlite' : 'postgres',
      ...(scratchDatabase === undefined ? {} : { freshDatabase: true }),
      cpuBusyBeforeRun: Math.round(busyBefore * 100) / 100,
      loadAverageBeforeRun: Math.round(loadBefore * 100) / 100,
    },
    settings: {
      connections: SETTINGS.connections,
      durationSeconds: SETTINGS.durationSeconds,
      warmUpSeconds: SETTINGS.warmUpSeconds,
      startupRuns: SETTINGS.startupRuns,
      loginConnections: SETTINGS.loginConnections,
      loginDurationSeconds: SETTINGS.loginDurationSeconds,
      commentConnections: SETTINGS.commentConnections,
      infoDurationSeconds: SETTINGS.infoDurationSeconds,
      mainPageRuns: SETTINGS.mainPageRuns,
      ...(SCENARIO_FILTER === undefined ? {} : { scenarioFilter: SCENARIO_FILTER.source }),
      logging: 'app and baseline: level info, async pino destination /dev/null; request logs off for /api/health and /baseline',
    },
    startup,
    throughput,
    commentData: comments ?? null,
    mainPage,
    analyzer,
    serverPeakRssMiB: serverPeakRssMiB ?? null,
    bundle,
    mainPageBundle: pageBundle,
    targets,
    passed,
  };
  // An interrupted run (Ctrl-C, the watchdog) is still dropping its database: no results from it.
  if (exiting) return 130;
  const file = writeResults(results);
  say();
  say(`${passed ? 'All targets met' : 'Some targets FAILED'} (${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s). Results: ${path.relative(ROOT, file)}`);
  if (busyBefore > 0.2) say(`Measured on a busy machine (${fixed(busyBefore * 100, 0)}% CPU in use before the run): rerun on an idle one before trusting req/s and p99.`);
  return passed ? 0 : 1;
}

/** Set once the run is ending (done, failed, interrupted or overrun): the first way out wins. */
let exiting = false;

/** Kills the children, removes the temporary directories, drops a fresh database (bounded), exits. */
function finish(code: number): void {
  if (exiting) return;
  exiting = true;
  cleanUp();
  if (scratchDatabase === undefined) process.exit(code);
  const dropped = Promise.race([dropScratchDatabase(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  void dropped.then(() => process.exit(code));
}

const watchdog = setTimeout(() => {
  process.stderr.write(`bench: still running after ${WATCHDOG_MS / 1000} s; killing child processes and giving up\n`);
  finish(3);
}, WATCHDOG_MS);
watchdog.unref();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    process.stderr.write(`\nbench: ${signal}, stopping child processes\n`);
    finish(130);
  });
}

main().then(
  (code) => {
    finish(code);
  },
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    finish(1);
  },
);
