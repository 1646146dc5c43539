/**
 * The process under load: the built application and a baseline Fastify instance, in one process so
 * both share Node, flags, CPU and logger. Before listening it seeds the bench member, times
 * argon2id and generates the comment data (and, for the analytics scenarios, the activity data);
 * then it prints one JSON line (lib/protocol.ts).
 * See bench/README.md for what it changes from a production start and why.
 */
import { createHash, randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import Fastify, { LogController } from 'fastify';
import pino from 'pino';
import type { buildApp } from '../src/server/app.js';
import type { AppConfig, loadConfig } from '../src/server/config.js';
import type { DatabaseHandle } from '../src/server/db/connection.js';
import type { hashPin, verifyPin } from '../src/server/modules/auth/secrets.js';
import type { commentableComponentIds } from '../src/server/content/validate.js';
import type { addMember } from '../src/server/modules/members/service.js';
import type { nameKey } from '../src/common/names.js';
import { QA_TEST_COMPONENT_ID } from '../src/common/api/architecture.js';
import { LISTEN_BACKLOG } from '../src/server/http/connection-limits.js';
import { builtExport } from './lib/built.js';
import { generateActivityData } from './lib/activity-data.js';
import { COMMENT_DATA_TARGETS, generateCommentData, generatedMemberNames, type CommentDataSummary } from './lib/comment-data.js';
import { generateSuggestionData } from './lib/suggestion-data.js';
import type { DEMO_THREADS } from '../src/server/seed/demo-comments.js';
import { BENCH_SERVER_ENV, SESSION_COOKIE, type CommentAudit, type ReadyLine, type ReplicaReadyLine } from './lib/protocol.js';
import { installSqlTrace, startSqlTrace, stopSqlTrace } from './lib/sql-trace.js';
import { summarize } from './lib/stats.js';

const LOG_SINK = '/dev/null';

/** The member the sign-in scenarios log in as; re-seeded (PIN and all) on every run. */
const BENCH_MEMBER = 'Bench Member';
/** The admin the admin panel is audited as (the bench member stays a member: its reads are a member's). */
const BENCH_ADMIN = 'Bench Admin';
const VERIFY_SAMPLES = 7;

/** Baseline-instance routes of the comment scenarios. */
const SAME_BYTES_PATH = '/same-bytes/typical-with-votes';
const AUDIT_PATH = '/bench/comments-audit';
/** Baseline-instance routes of the analytics scenarios: `…/start`, `…/stop` (lib/sql-trace.ts). */
const SQL_TRACE_PATH = '/bench/sql-trace';

/** Every request comes from one address, and the POST scenario is one member: both limits lifted (the config's maximum). */
const SIGN_IN_LIMIT_PER_MINUTE = '99999';
const COMMENT_LIMIT_PER_MINUTE = '99999';

const logDestination = () => pino.destination({ dest: LOG_SINK, sync: false });

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} must be set (bench/server.ts is started by bench/run.ts)`);
  return value;
}

function optionalEnv(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

async function main() {
  const dataDir = requiredEnv(BENCH_SERVER_ENV.dataDir);
  const databaseUrl = optionalEnv(BENCH_SERVER_ENV.databaseUrl);
  const clientDirEnv = optionalEnv(BENCH_SERVER_ENV.clientDir);
  const clientDir = clientDirEnv !== undefined && existsSync(clientDirEnv) ? clientDirEnv : undefined;
  const withActivityData = optionalEnv(BENCH_SERVER_ENV.activityData) === '1';
  const replica = optionalEnv(BENCH_SERVER_ENV.replica) === '1';
  // The mixed load opens hundreds of connections from 127.0.0.1, as clients behind a reverse proxy
  // arrive: the per-address connection cap (which a proxy makes the proxy's job) is not what it measures.
  const trustProxy = optionalEnv(BENCH_SERVER_ENV.trustProxy) === '1';
  // The pool's settings may be varied from the shell (bench-server.ts passes everything but BENCH_*).
  const poolEnv = Object.fromEntries(
    (['DATABASE_POOL_SIZE', 'DATABASE_POOL_WAIT_MS'] as const).flatMap((name) => {
      const value = optionalEnv(name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
  // Before the app opens its database; off (one flag test a statement) until a scenario starts a trace.
  installSqlTrace();

  // Configured as main.ts configures a production start, from a fixed environment rather than the shell's.
  const load = await builtExport<typeof loadConfig>('server/config.js', 'loadConfig');
  const build = await builtExport<typeof buildApp>('server/app.js', 'buildApp');
  const { config } = await load(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      SIGN_IN_LIMIT_PER_MINUTE,
      COMMENT_LIMIT_PER_MINUTE,
      ...(trustProxy ? { TRUST_PROXY: 'loopback' } : {}),
      ...poolEnv,
      ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    },
    clientDir,
  );
  const app = await build(config, { collectProcessMetrics: true, logDestination: logDestination() });
  if (replica) {
    // A second instance on the primary's database and secrets (the same DATA_DIR): only the app.
    closeOnSignals(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1', backlog: LISTEN_BACKLOG });
    const line: ReplicaReadyLine = { appPort: portOf(app.server.address()), dialect: databaseUrl === undefined ? 'sqlite' : 'postgres' };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    return;
  }
  const { signIn, memberId } = await seedMember(app.database, config);
  const { adminSignIn, adminId } = await seedAdmin(app.database, signIn, memberId);
  const argon2 = await timeArgon2(config, signIn.pin);

  const commentable = await builtExport<typeof commentableComponentIds>('server/content/validate.js', 'commentableComponentIds');
  const add = await builtExport<typeof addMember>('server/modules/members/service.js', 'addMember');
  const data = await generateCommentData({
    db: app.database.db,
    dialect: app.database.dialect,
    // The self-test's scratch component takes only the QA member's comments, as in a real deployment.
    commentableIds: new Set([...commentable(app.architecture)].filter((id) => id !== QA_TEST_COMPONENT_ID)),
    addMember: add,
    alsoClearMemberIds: [memberId, adminId],
  });
  await shareBenchPin(app.database, memberId);
  const threads = await builtExport<typeof DEMO_THREADS>('server/seed/demo-comments.js', 'DEMO_THREADS');
  await generateSuggestionData({
    db: app.database.db,
    threads,
    members: await app.database.db.selectFrom('members').select(['id', 'full_name']).where('full_name', 'in', generatedMemberNames(COMMENT_DATA_TARGETS.members)).orderBy('id').execute(),
  });
  const activity = withActivityData
    ? await generateActivityData({
        db: app.database.db,
        dialect: app.database.dialect,
        members: await app.database.db
          .selectFrom('members')
          .select(['id', 'full_name'])
          .where('full_name', 'in', generatedMemberNames(COMMENT_DATA_TARGETS.members))
          .orderBy('id')
          .execute(),
        alsoClearMemberIds: [memberId, adminId],
        componentIds: [...commentable(app.architecture)].filter((id) => id !== QA_TEST_COMPONENT_ID).sort(),
        maxCommentId: (await app.database.db.selectFrom('comments').select((eb) => eb.fn.max<number | null>('id').as('max')).executeTakeFirstOrThrow()).max ?? 1,
      })
    : undefined;
  const typical = await typicalResponse(app, signIn, data);
  // The data generation's garbage is the bench's, not the server's: collected before the memory is measured.
  const collectGarbage: unknown = Reflect.get(globalThis, 'gc');
  if (typeof collectGarbage === 'function') Reflect.apply(collectGarbage, globalThis, []);

  const baseline = Fastify({
    logger: { level: 'info', stream: logDestination() },
    logController: new LogController({ disableRequestLogging: true }),
  });
  baseline.get('/baseline', (_request, reply) => reply.send({ ok: true }));
  // The same bytes as the app's answer, from memory: what Fastify and Node cost for that body.
  baseline.get(SAME_BYTES_PATH, (_request, reply) => reply.type(typical.contentType).send(typical.body));
  baseline.get<{ Querystring: { componentId?: string; afterId?: string } }>(AUDIT_PATH, async (request) =>
    audit(app.database, memberId, request.query.componentId ?? '', Number(request.query.afterId ?? '0')),
  );
  baseline.get(`${SQL_TRACE_PATH}/start`, (_request, reply) => {
    startSqlTrace();
    return reply.send({ ok: true });
  });
  baseline.get(`${SQL_TRACE_PATH}/stop`, (_request, reply) => reply.send(stopSqlTrace()));

  closeOnSignals(() => Promise.allSettled([app.close(), baseline.close()]));

  await app.listen({ port: 0, host: '127.0.0.1', backlog: LISTEN_BACKLOG });
  await baseline.listen({ port: 0, host: '127.0.0.1' });

  const ready: ReadyLine = {
    appPort: portOf(app.server.address()),
    baselinePort: portOf(baseline.server.address()),
    clientDir: clientDir ?? null,
    dialect: databaseUrl === undefined ? 'sqlite' : 'postgres',
    logging: `level info, async pino destination ${LOG_SINK}; request logs off for /api/health and /baseline`,
    signIn,
    adminSignIn,
    argon2,
    comments: {
      ...data,
      sameBytes: {
        path: SAME_BYTES_PATH,
        bytes: typical.body.length,
        sha256: createHash('sha256').update(typical.body).digest('hex'),
        contentType: typical.contentType,
      },
      auditPath: AUDIT_PATH,
    },
    activity: activity === undefined ? null : { ...activity, sqlTracePath: SQL_TRACE_PATH },
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}

/** Closes the servers on SIGTERM or SIGINT, or when the orchestrator's end of stdin closes; killed after 5 s. */
function closeOnSignals(closeServers: () => Promise<unknown>): void {
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    await closeServers();
    process.exit(0);
  };
  process.on('SIGTERM', () => void close());
  process.on('SIGINT', () => void close());
  // The orchestrator holds our stdin; if it dies without killing us, the pipe closes and we go too.
  process.stdin.on('end', () => void close());
  process.stdin.resume();
}

/**
 * The generated members get the bench member's PIN (its hash, so one argon2 hash for all): the
 * mixed load signs in as many of them, so that per-member costs and limits are spread as a team's are.
 */
async function shareBenchPin(database: DatabaseHandle, memberId: number): Promise<void> {
  const { db } = database;
  const bench = await db.selectFrom('members').select(['pin_hash', 'pin_set_at']).where('id', '=', memberId).executeTakeFirstOrThrow();
  await db
    .updateTable('members')
    .set({ pin_hash: bench.pin_hash, pin_set_at: bench.pin_set_at, active: 1 })
    .where('full_name', 'in', generatedMemberNames(COMMENT_DATA_TARGETS.members))
    .execute();
}

/** One active member with a PIN, as an admin adds one; a member kept from an earlier run gets a new PIN and no lock. */
async function seedMember(database: DatabaseHandle, config: AppConfig): Promise<{ signIn: ReadyLine['signIn']; memberId: number }> {
  const add = await builtExport<typeof addMember>('server/modules/members/service.js', 'addMember');
  const hash = await builtExport<typeof hashPin>('server/modules/auth/secrets.js', 'hashPin');
  const keyOf = await builtExport<typeof nameKey>('common/names.js', 'nameKey');
  const pin = String(randomInt(0, 10_000)).padStart(4, '0');
  const { fullName } = await add(database.db, BENCH_MEMBER);
  const key = keyOf(fullName);
  const pinHash = await hash(pin, config.secrets.pinPepper);
  await database.db.updateTable('members').set({ pin_hash: pinHash, pin_set_at: Date.now(), active: 1 }).where('name_key', '=', key).execute();
  await database.db.deleteFrom('login_locks').where('name_key', '=', key).execute();
  const member = await database.db.selectFrom('members').select('id').where('name_key', '=', key).executeTakeFirstOrThrow();
  return { signIn: { name: fullName, password: config.secrets.teamPassword, pin }, memberId: member.id };
}

/**
 * An active admin with the bench member's PIN (its hash: no second argon2 hash), added as an admin
 * adds one; one kept from an earlier run (PostgreSQL) is made admin again and loses any lock.
 */
async function seedAdmin(database: DatabaseHandle, member: ReadyLine['signIn'], memberId: number): Promise<{ adminSignIn: ReadyLine['adminSignIn']; adminId: number }> {
  const add = await builtExport<typeof addMember>('server/modules/members/service.js', 'addMember');
  const keyOf = await builtExport<typeof nameKey>('common/names.js', 'nameKey');
  const { fullName } = await add(database.db, BENCH_ADMIN, { role: 'admin' });
  const key = keyOf(fullName);
  const { db } = database;
  const bench = await db.selectFrom('members').select(['pin_hash', 'pin_set_at']).where('id', '=', memberId).executeTakeFirstOrThrow();
  await db.updateTable('members').set({ pin_hash: bench.pin_hash, pin_set_at: bench.pin_set_at, role: 'admin', active: 1 }).where('name_key', '=', key).execute();
  await db.deleteFrom('login_locks').where('name_key', '=', key).execute();
  const admin = await db.selectFrom('members').select('id').where('name_key', '=', key).executeTakeFirstOrThrow();
  return { adminSignIn: { name: fullName, password: member.password, pin: member.pin }, adminId: admin.id };
}

/** The typical component's GET …/with-votes as the app answers a signed-in member (no viewer in it: the same bytes for all). */
async function typicalResponse(
  app: Awaited<ReturnType<typeof buildApp>>,
  signIn: ReadyLine['signIn'],
  data: CommentDataSummary,
): Promise<{ body: Buffer; contentType: string }> {
  const login = await app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(signIn) });
  const token = login.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value;
  if (login.statusCode !== 200 || token === undefined) throw new Error(`the bench member could not sign in (${login.statusCode} ${login.body.slice(0, 120)})`);
  const url = `/api/comments/${encodeURIComponent(data.typical.componentId)}/with-votes`;
  const response = await app.inject({ method: 'GET', url, cookies: { [SESSION_COOKIE]: token } });
  const contentType = response.headers['content-type'];
  if (response.statusCode !== 200 || typeof contentType !== 'string' || !contentType.startsWith('application/json')) {
    throw new Error(`GET ${url} answered ${response.statusCode} ${String(contentType)}: ${response.body.slice(0, 120)}`);
  }
  const comments: unknown = response.json();
  if (!Array.isArray(comments) || comments.length !== data.typical.comments) {
    throw new Error(`GET ${url} did not answer the ${data.typical.comments} generated comments`);
  }
  return { body: response.rawPayload, contentType };
}

/** Row counts and the bench member's comments on one component above an id: the POST scenario's check. */
async function audit(database: DatabaseHandle, memberId: number, componentId: string, afterId: number): Promise<CommentAudit> {
  const { db } = database;
  const totals = await db
    .selectFrom('comments')
    .select((eb) => [eb.fn.countAll<number | string>().as('total'), eb.fn.count<number | string>('id').distinct().as('distinct_ids'), eb.fn.max<number | null>('id').as('max_id')])
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('comments')
    .select(['id', 'content'])
    .where('component_id', '=', componentId)
    .where('member_id', '=', memberId)
    .where('id', '>', Number.isFinite(afterId) ? afterId : 0)
    .orderBy('id')
    .execute();
  return {
    total: Number(totals.total),
    distinctIds: Number(totals.distinct_ids),
    maxId: totals.max_id ?? 0,
    newIds: rows.map((row) => row.id),
    newDistinctContents: new Set(rows.map((row) => row.content)).size,
  };
}

/** argon2id with the app's parameters, one call at a time on the idle server; at most min(cores, libuv's pool) run at once. */
async function timeArgon2(config: AppConfig, pin: string): Promise<ReadyLine['argon2']> {
  const hash = await builtExport<typeof hashPin>('server/modules/auth/secrets.js', 'hashPin');
  const verify = await builtExport<typeof verifyPin>('server/modules/auth/secrets.js', 'verifyPin');
  const pepper = config.secrets.pinPepper;
  let started = performance.now();
  const pinHash = await hash(pin, pepper);
  const hashMs = performance.now() - started;
  if (!(await verify(pinHash, pin, pepper))) throw new Error('verifyPin rejected the PIN it was just given');
  const samples: number[] = [];
  for (let run = 0; run < VERIFY_SAMPLES; run += 1) {
    started = performance.now();
    await verify(pinHash, pin, pepper);
    samples.push(performance.now() - started);
  }
  const poolSize = Number(process.env.UV_THREADPOOL_SIZE);
  const threadPoolSize = Number.isInteger(poolSize) && poolSize > 0 ? poolSize : 4;
  const cores = os.availableParallelism();
  return {
    hashMs: Math.round(hashMs * 100) / 100,
    verifyMs: Math.round(summarize(samples).median * 100) / 100,
    verifySamples: samples.length,
    parallel: Math.min(cores, threadPoolSize),
    cores,
    threadPoolSize,
  };
}

function portOf(address: string | AddressInfo | null): number {
  if (typeof address === 'object' && address !== null) return address.port;
  throw new Error('server is not listening on a TCP port');
}

main().catch((error: unknown) => {
  process.stderr.write(`bench server failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
