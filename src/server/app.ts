import cookie from '@fastify/cookie';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { Architecture } from '../common/contract/architecture.js';
import type { AppConfig, TrustProxy } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { commentableComponentIds, componentDescription, componentTitle, loadArchitecture, reviewedComponents } from './content/validate.js';
import { LocalEventBus, PostgresEventBus, type EventBus } from './event-bus/event-bus.js';
import { AccessLog, serializeRequest } from './http/access-log.js';
import { Drain } from './http/drain.js';
import { createLimitedServer, MAX_CONNECTIONS_PER_ADDRESS } from './http/connection-limits.js';
import { apiNotFound, hasFileExtension, registerClientApp, spaStatusFor } from './http/client-app.js';
import { registerCompression } from './http/compression.js';
import { handleError, handleFrameworkError } from './http/error-handler.js';
import { registerMetrics } from './http/metrics.js';
import { RateLimiter } from './http/rate-limit.js';
import { answerClientError, registerSecurityHeaders } from './http/security-headers.js';
import type { App } from './http/types.js';
import { registerCsrfProtection } from './http/csrf.js';
import { registerParameterHygiene } from './http/parameter-hygiene.js';
import { documentViewer, registerAuthGuards, type RouteAccess } from './modules/auth/guards.js';
import { deleteExpiredAnswers, KeyBudget, registerIdempotency } from './modules/idempotency/hooks.js';
import { registerJoinedWork } from './http/joined-work.js';
import { registerArchitectureRoutes } from './modules/architecture/routes.js';
import { registerAuthRoutes } from './modules/auth/routes.js';
import { CommentService } from './modules/comments/service.js';
import { registerCommentRoutes } from './modules/comments/routes.js';
import { registerDecisionRoutes } from './modules/decisions/routes.js';
import { registerExportRoutes } from './modules/export/routes.js';
import { DecisionService } from './modules/decisions/service.js';
import { registerEventRoutes } from './modules/live-events/routes.js';
import { createAiEngine } from './ai-providers/index.js';
import { AnalyzerPool } from './ai-providers/local/analyzer-pool.js';
import { PromptService } from './modules/ai-prompts/service.js';
import { registerAiPromptRoutes } from './modules/ai-prompts/routes.js';
import { CommentSummaryService } from './modules/comments/summary-service.js';
import { NarrativeService } from './modules/suggestions/narrative-service.js';
import { registerSuggestionRoutes } from './modules/suggestions/routes.js';
import { SuggestionService } from './modules/suggestions/service.js';
import { SessionStore } from './modules/auth/sessions.js';
import { sessionCacheFollowing } from './modules/auth/session-cache.js';
import { AdminActions } from './modules/admin/policies.js';
import { registerAdminRoutes } from './modules/admin/routes.js';
import { AdminService } from './modules/admin/service.js';
import { ensureAdmin } from './modules/members/service.js';
import type { EnrollmentLink } from './modules/enrollment/service.js';
import { deleteExpiredEnrollmentTokens } from './modules/enrollment/repo.js';
import { registerErrorReportRoutes } from './modules/error-reports/routes.js';
import { ErrorReports } from './modules/error-reports/service.js';
import { registerHealthRoutes } from './modules/health/routes.js';
import { registerQaRoutes } from './modules/qa/routes.js';
import { registerActivityRoutes } from './modules/activity/routes.js';
import { ActivityService, AnalyticsService } from './modules/activity/service.js';
import { QA_TEST_COMPONENT_ID } from '../common/api/architecture.js';

export interface BuildOptions {
  /** Where log lines go; defaults to stdout. */
  logDestination?: DestinationStream;
  /** Process-wide metrics (event loop, memory); off in tests that build many apps. */
  collectProcessMetrics?: boolean;
  /** Idempotency keys one member may have stored per hour (tests lower it). */
  idempotencyKeysPerMember?: number;
  /**
   * The self-test's pause between checks, which spares members' requests on a live server; API
   * tests that run it whole turn it off (0), as it is most of a run's time there.
   */
  qaPauseBetweenChecksMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
    /** The architecture under review, validated once at start-up (content/validate.ts). */
    architecture: Architecture;
    /** Change events and session ends, to every instance. */
    events: EventBus;
    /** The worker threads that run the local analyzer. */
    analyzers: AnalyzerPool;
    /** The admin's enrollment link when this start issued one (ADMIN_NAME without a PIN); printed once by main.ts. */
    adminEnrollmentLink: EnrollmentLink | undefined;
    /** Every /api route with who may call it: the route-by-role test checks each one. */
    apiRoutes: readonly ApiRouteEntry[];
    /** Begun when the process is asked to stop (main.ts), before the server closes. */
    drain: Drain;
  }
}

export interface ApiRouteEntry {
  method: string;
  url: string;
  access: RouteAccess;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Whose X-Forwarded-* headers to believe (ADR 0017). A hop count trusts the nearest `value`
 * addresses of the chain, so the client address is the right-most one the proxies did not add;
 * Fastify 5 treats a bare number as "trust nobody", hence the function. An address list goes to
 * Fastify as is: it trusts a hop only when that hop is a listed proxy.
 */
function trustProxySetting(value: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (value === false) return false;
  if (typeof value === 'number') return (_address, hop) => hop < value;
  return [...value];
}

/** In-process events on SQLite; LISTEN/NOTIFY across instances on PostgreSQL. */
async function startEventBus(app: App, database: DatabaseHandle, databaseUrl: string | undefined): Promise<EventBus> {
  if (databaseUrl === undefined || database.dialect !== 'postgres') return new LocalEventBus();
  const bus = new PostgresEventBus(database.db, databaseUrl, app.log);
  await bus.start();
  return bus;
}

/** Builds the whole application on an open, migrated database; main.ts only adds listen and signals. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<App> {
  // The logger exists once Fastify does; a connection may fail before that only while migrating.
  const connectionLog: { current?: FastifyBaseLogger } = {};
  const database = openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    poolSize: config.database.poolSize,
    poolWaitMs: config.database.poolWaitMs,
    onConnectionError: (error) => connectionLog.current?.warn({ err: error }, 'database connection lost'),
  });
  let architecture: Architecture;
  let adminEnrollmentLink: EnrollmentLink | undefined;
  try {
    await migrateToLatest(database);
    // A broken content file stops start-up here, with every problem listed.
    architecture = loadArchitecture();
    if (config.adminName !== undefined) adminEnrollmentLink = await ensureAdmin(database.db, config.adminName, config.publicUrl);
  } catch (error) {
    await database.close();
    throw error;
  }

  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Credentials travel in these headers; a log line must never carry them.
      // An enrollment link's token is a credential: its path is logged without it.
      serializers: { req: serializeRequest },
      redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-team-password"]', 'res.headers["set-cookie"]'],
      ...(options.logDestination === undefined ? {} : { stream: options.logDestination }),
    },
    // Honour a caller's request id (a proxy's or a test's) when it is well-formed, else mint one.
    // genReqId reads the header itself: with requestIdHeader set, Fastify would take any value as is.
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    logController: new AccessLog(),
    trustProxy: trustProxySetting(config.trustProxy),
    // Answers Fastify and Node write before any hook runs carry the security headers too.
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: answerClientError,
    bodyLimit: 64 * 1024,
    serverFactory: createLimitedServer({ perAddress: config.trustProxy === false ? MAX_CONNECTIONS_PER_ADDRESS : undefined }),
    // While draining, requests that arrive on kept-alive connections are served (with Connection:
    // close) rather than refused: the client sent them before it could know.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  connectionLog.current = app.log;
  const drain = new Drain();
  app.decorate('drain', drain);
  app.addHook('onSend', async (_request, reply) => {
    if (drain.draining) reply.header('connection', 'close');
  });

  const apiRoutes: ApiRouteEntry[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    for (const method of [route.method].flat()) apiRoutes.push({ method, url: route.url, access: route.config?.access ?? 'member' });
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('database', database);
  app.decorate('architecture', architecture);
  app.decorate('adminEnrollmentLink', adminEnrollmentLink);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Before every guard and handler: a control character in a parameter never reaches a query.
  registerParameterHygiene(app);

  const limiter = new RateLimiter(database.db);
  const events = await startEventBus(app, database, config.databaseUrl);
  app.decorate('events', events);
  const sessions = new SessionStore(database.db, config.session, (notice) => events.endSessions(notice), sessionCacheFollowing(events, config.session.cacheMs));
  const errorReports = new ErrorReports(database.db, config.errorLogs, events);
  const activity = new ActivityService(database.db, events, limiter, config.activityRetentionDays);
  const sweep = setInterval(() => {
    Promise.all([limiter.deleteExpired(), sessions.deleteExpired(), deleteExpiredEnrollmentTokens(database.db, Date.now()), deleteExpiredAnswers(database.db), errorReports.sweep(), activity.rollUp()]).catch((error: unknown) => {
      app.log.warn({ err: error }, 'expiry sweep failed');
    });
  }, 5 * 60_000);
  sweep.unref();

  app.setErrorHandler(handleError);
  registerSecurityHeaders(app);
  registerCsrfProtection(app);
  await app.register(cookie);
  // Before any route is declared: the plugin hooks into each route as it is added.
  await registerCompression(app);
  registerAuthGuards(app, sessions);
  registerJoinedWork(app);
  registerIdempotency(app, database.db, config.secrets.pinPepper, new KeyBudget(options.idempotencyKeysPerMember));
  registerMetrics(app, { collectProcessMetrics: options.collectProcessMetrics ?? true, token: config.metricsToken });

  registerHealthRoutes(app, database, { draining: () => drain.draining });
  registerErrorReportRoutes(app, { reports: errorReports, limiter });
  registerArchitectureRoutes(app, architecture);
  registerAuthRoutes(app, { db: database.db, sessions, limiter, config });

  const analyzers = new AnalyzerPool(config.ai.workers);
  app.decorate('analyzers', analyzers);
  const ai = createAiEngine(config.ai, app.log, analyzers);
  const titleOf = (componentId: string) => componentTitle(architecture, componentId);
  const titleOrId = (componentId: string) => titleOf(componentId) ?? componentId;
  const descriptionOf = (componentId: string) => componentDescription(architecture, componentId);

  const commentable = commentableComponentIds(architecture);
  const commentPostRule = {
    name: 'comment-post',
    max: config.commentLimitPerMinute,
    windowMs: 60_000,
    message: 'You are posting comments faster than the team can read them',
  };
  const adminActions = new AdminActions(database.db, limiter, () => config.secrets.adminPassword);
  const decisions = new DecisionService(database.db, events, adminActions, (id) => commentable.has(id) && id !== QA_TEST_COMPONENT_ID);
  const suggestions = new SuggestionService(database.db, database.dialect, ai, events, adminActions, titleOrId, descriptionOf);
  registerCommentRoutes(app, {
    comments: new CommentService(database.db, database.dialect, events, (id) => commentable.has(id), { limiter, rule: commentPostRule }),
    summaries: new CommentSummaryService(database.db, ai, titleOf, descriptionOf, (componentId) => decisions.currentOf(componentId)),
    events,
    limiter,
    decisions: () => decisions.current(),
    actions: () => suggestions.actionCounts(),
  });
  registerDecisionRoutes(app, decisions);
  registerEventRoutes(app, { events, sessions, drain });

  const prompts = new PromptService(database.db, database.dialect, events, adminActions, config.aiPromptHistoryMax);
  registerSuggestionRoutes(app, { suggestions, narrative: new NarrativeService(database.db, ai, suggestions, prompts, () => decisions.currentAll()), events, limiter });
  registerAiPromptRoutes(app, prompts);
  registerAdminRoutes(app, new AdminService(database.db, database.dialect, events, adminActions, config));
  registerQaRoutes(app, { config, events }, { pauseBetweenChecksMs: options.qaPauseBetweenChecksMs });
  const reviewed = reviewedComponents(architecture);
  registerActivityRoutes(app, { activity, analytics: new AnalyticsService(database.db, events, reviewed), events });
  registerExportRoutes(app, { db: database.db, components: reviewed, limiter });

  const client = await registerClientApp(app, config.clientDir, documentViewer(sessions));
  const notFoundLimit = limiter.hook({ name: 'api-not-found', max: 120, windowMs: 60_000 });
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '/';
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      // Probing for endpoints is cheap for an attacker; make it slow for them, not for the database.
      await notFoundLimit.call(app, request, reply);
      throw apiNotFound(request.method, pathname);
    }
    if (client !== undefined && (request.method === 'GET' || request.method === 'HEAD') && !hasFileExtension(pathname)) {
      return client.serveIndex(request, reply, spaStatusFor(pathname));
    }
    throw apiNotFound(request.method, pathname);
  });

  app.addHook('onClose', async () => {
    clearInterval(sweep);
    await analyzers.close();
    await events.close();
    await database.close();
  });
  return app;
}
