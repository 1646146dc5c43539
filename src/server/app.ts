import cookie from '@fastify/cookie';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { Architecture } from '../shared/contract/architecture.js';
import type { AppConfig } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { commentableComponentIds, componentTitle, loadArchitecture } from './content/validate.js';
import { LocalEventBus, PostgresEventBus, type EventBus } from './events/event-bus.js';
import { AccessLog } from './http/access-log.js';
import { apiNotFound, hasFileExtension, registerClientApp, spaStatusFor } from './http/client-app.js';
import { handleError } from './http/error-handler.js';
import { registerMetrics } from './http/metrics.js';
import { RateLimiter } from './http/rate-limit.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import type { App } from './http/types.js';
import { registerCsrfProtection } from './http/csrf.js';
import { registerAuthGuards } from './modules/auth/guards.js';
import { registerArchitectureRoutes } from './modules/architecture/routes.js';
import { registerAuthRoutes } from './modules/auth/routes.js';
import { CommentService } from './modules/comments/service.js';
import { registerCommentRoutes } from './modules/comments/routes.js';
import { registerEventRoutes } from './modules/events/routes.js';
import { createAiEngine } from './ai/index.js';
import { NarrativeService } from './modules/ai/narrative-service.js';
import { PromptService } from './modules/ai/prompt-service.js';
import { registerAiRoutes } from './modules/ai/routes.js';
import { CommentSummaryService } from './modules/ai/summary-service.js';
import { SuggestionService } from './modules/ai/suggestion-service.js';
import { SessionStore } from './modules/auth/sessions.js';
import { AdminActions } from './modules/admin/policies.js';
import { ensureAdmin } from './modules/members/service.js';
import type { EnrollmentLink } from './modules/enrollment/service.js';
import { deleteExpiredEnrollmentTokens } from './modules/enrollment/repo.js';
import { ENROLLMENT_LINK_PREFIX } from '../shared/contract/auth.js';
import { registerErrorReportRoutes } from './modules/error-reports/routes.js';
import { registerHealthRoutes } from './modules/health/routes.js';

export interface BuildOptions {
  /** Where log lines go; defaults to stdout. */
  logDestination?: DestinationStream;
  /** Process-wide metrics (event loop, memory); off in tests that build many apps. */
  collectProcessMetrics?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
    /** The architecture under review, validated once at start-up (content/validate.ts). */
    architecture: Architecture;
    /** The admin's enrollment link when this start issued one (ADMIN_NAME without a PIN); printed once by main.ts. */
    adminEnrollmentLink: EnrollmentLink | undefined;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Fastify's request log fields, with an enrollment token cut out of the URL. */
function serializeRequest(request: FastifyRequest) {
  const url = request.url.startsWith(ENROLLMENT_LINK_PREFIX) ? `${ENROLLMENT_LINK_PREFIX}[token]` : request.url;
  return { method: request.method, url, host: request.host, remoteAddress: request.ip, remotePort: request.socket.remotePort };
}

/** A hop count trusts that many proxies in front of us (Fastify's typings only take a function for it). */
function trustProxySetting(value: boolean | number): boolean | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/** In-process events on SQLite; LISTEN/NOTIFY across instances on PostgreSQL (ARCHITECTURE.md 6). */
async function startEventBus(app: App, database: DatabaseHandle, databaseUrl: string | undefined): Promise<EventBus> {
  if (databaseUrl === undefined || database.dialect !== 'postgres') return new LocalEventBus();
  const bus = new PostgresEventBus(database.db, databaseUrl, app.log);
  await bus.start();
  return bus;
}

/** Builds the whole application on an open, migrated database; main.ts only adds listen and signals. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<App> {
  const database = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
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
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('database', database);
  app.decorate('architecture', architecture);
  app.decorate('adminEnrollmentLink', adminEnrollmentLink);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const limiter = new RateLimiter(database.db);
  const events = await startEventBus(app, database, config.databaseUrl);
  const sessions = new SessionStore(database.db, config.session, (notice) => events.endSessions(notice));
  const sweep = setInterval(() => {
    Promise.all([limiter.deleteExpired(), sessions.deleteExpired(), deleteExpiredEnrollmentTokens(database.db, Date.now())]).catch((error: unknown) => {
      app.log.warn({ err: error }, 'expiry sweep failed');
    });
  }, 5 * 60_000);
  sweep.unref();

  app.setErrorHandler(handleError);
  registerSecurityHeaders(app);
  registerCsrfProtection(app);
  await app.register(cookie);
  registerAuthGuards(app, sessions);
  registerMetrics(app, { collectProcessMetrics: options.collectProcessMetrics ?? true });

  registerHealthRoutes(app, database);
  registerErrorReportRoutes(app, { db: database.db, limiter });
  registerArchitectureRoutes(app, architecture);
  registerAuthRoutes(app, { db: database.db, sessions, limiter, config });

  const commentable = commentableComponentIds(architecture);
  registerCommentRoutes(app, new CommentService(database.db, database.dialect, events, (id) => commentable.has(id)));
  registerEventRoutes(app, { events, sessions, idleMs: config.session.idleMs });

  const ai = createAiEngine(config.ai, app.log);
  const titleOf = (componentId: string) => componentTitle(architecture, componentId);
  const titleOrId = (componentId: string) => titleOf(componentId) ?? componentId;
  const adminActions = new AdminActions(database.db, limiter, () => config.secrets.adminPassword);
  const prompts = new PromptService(database.db, database.dialect, events, adminActions);
  const suggestions = new SuggestionService(database.db, database.dialect, ai, events, titleOrId);
  registerAiRoutes(app, {
    summaries: new CommentSummaryService(database.db, ai, events, titleOf),
    suggestions,
    narrative: new NarrativeService(database.db, ai, events, suggestions, prompts, titleOrId),
    prompts,
  });

  const client = await registerClientApp(app, config.clientDir);
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
    await events.close();
    await database.close();
  });
  return app;
}
