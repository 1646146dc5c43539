import { randomBytes } from 'node:crypto';
import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import { authRoutes } from '../../../common/api/auth.js';
import type { LiveEvent } from '../../../common/api/live-events.js';
import type { AppConfig } from '../../config.js';
import type { QaStatus } from '../../db/schema.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import type { App } from '../../http/types.js';
import { ensureQaMember } from '../members/service.js';
import { cookieNames } from '../auth/guards.js';
import { startQaSession } from '../auth/service.js';
import { SessionStore } from '../auth/sessions.js';
import { QaSkip, type CallOptions, type Cookies, type HttpMethod, type QaCheck, type QaContext, type QaSuite } from './context.js';
import { checkIntegrity } from './integrity.js';
import { CheckPacer, DEFAULT_PACING } from './pacing.js';
import { deleteLoginLockOf, deleteQaBuckets, deleteQaData, finishRun, saveProgress, type IntegrityReport, type QaResultRow, type QaScope } from './repo.js';

/**
 * Where the run's requests come from: an address of the documentation range (RFC 5737), which no
 * real client has, so the run's sign-ins never spend the per-address budget of real members (all
 * on 127.0.0.1 behind a local proxy) and its buckets can be removed without touching theirs.
 */
export const QA_REMOTE_ADDRESS = '192.0.2.44';
export const DEFAULT_CHECK_TIMEOUT_MS = 10_000;
/** A run whose heartbeat is older than this was left by an instance that died: it no longer blocks. */
export const QA_RUN_STALE_MS = 3 * 60_000;
/** How long the clean-up waits for checks that timed out to settle, so it removes what they wrote. */
const STRAGGLER_GRACE_MS = 15_000;
export interface QaRunnerDeps {
  app: App;
  config: Pick<AppConfig, 'qaUserName' | 'secrets' | 'session' | 'commentLimitPerMinute' | 'errorLogs'>;
  events: EventBus;
}

export interface QaRunnerOptions {
  checkTimeoutMs?: number;
  stragglerGraceMs?: number;
  pauseBetweenChecksMs?: number;
}

export interface QaOutcome {
  passed: number;
  failed: number;
  skipped: number;
}

interface CheckOutcome {
  status: QaStatus;
  reason: string | null;
  durationMs: number;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message === '' ? error.name : error.message;
  return String(error);
}

/**
 * Runs suites of checks against the live application and records one result per check. Checks run
 * one after another; each has a time limit, and one that throws or overruns fails with its reason.
 * Whatever happens, the clean-up removes every row the run made and every trace of its sign-ins.
 */
export class QaRunner {
  constructor(
    private readonly deps: QaRunnerDeps,
    private readonly options: QaRunnerOptions = {},
  ) {}

  async run(runId: number, runBy: string, suites: readonly QaSuite[]): Promise<QaOutcome> {
    const { db } = this.deps.app.database;
    const outcome: QaOutcome = { passed: 0, failed: 0, skipped: 0 };
    const stragglers = new Set<Promise<void>>();
    const run: { scope?: QaScope; context?: QaContext; setupError?: string } = {};
    let position = 0;
    let completedSuites = 0;

    // Results are written a suite at a time, with the progress (one commit per suite).
    let pending: QaResultRow[] = [];
    const record = (suite: string, name: string, result: CheckOutcome) => {
      position += 1;
      outcome[result.status] += 1;
      pending.push({ position, testName: name, testSuite: suite, status: result.status, durationMs: result.durationMs, reason: result.reason });
    };

    const pacer = new CheckPacer({ ...DEFAULT_PACING, basePauseMs: this.options.pauseBetweenChecksMs ?? DEFAULT_PACING.basePauseMs });
    const checkCount = suites.reduce((count, suite) => count + suite.checks.length, 0);
    let lastDurationMs = 0;
    try {
      try {
        await this.setUp(runId, run);
      } catch (error) {
        run.setupError = messageOf(error);
      }
      for (const suite of suites) {
        await saveProgress(db, runId, { runBy, results: pending, suite: suite.name, completedSuites, now: Date.now() });
        pending = [];
        await this.publish({ type: 'qa.progress' });
        for (const check of suite.checks) {
          if (position > 0) await pacer.beforeNext(lastDurationMs, checkCount - position);
          // Each check starts with fresh rate-limit budgets: the run posts and signs in more than a
          // person would, and a low configured limit must not fail one check for another's calls.
          if (run.scope !== undefined) await deleteQaBuckets(db, run.scope);
          const { context } = run;
          const result =
            context === undefined
              ? { status: 'failed' as const, reason: `the run could not sign in as the QA member: ${run.setupError ?? 'unknown error'}`, durationMs: 0 }
              : await this.runCheck(check, context, stragglers);
          record(suite.name, check.name, result);
          lastDurationMs = result.durationMs;
        }
        completedSuites += 1;
      }
    } finally {
      const cleanupError = await this.cleanUp(run, stragglers);
      if (cleanupError !== undefined) record('Clean-up', 'Remove the QA data', { status: 'failed', reason: cleanupError, durationMs: 0 });
      await finishRun(db, runId, { runBy, results: pending, ...outcome, completedSuites, now: Date.now() });
      await this.publish({ type: 'qa.progress' });
    }
    return outcome;
  }

  /**
   * The QA member exists with the configured PIN and no lock, and the run is signed in as it. A QA
   * member an admin deactivated stays so: the run fails its set-up, saying why.
   */
  private async setUp(runId: number, run: { scope?: QaScope; context?: QaContext }): Promise<void> {
    const { app, config, events } = this.deps;
    const { db, dialect } = app.database;
    const member = await ensureQaMember(db, config.qaUserName, config.secrets.qaPin, config.secrets.pinPepper, { reactivate: false });
    const scope: QaScope = { memberId: member.id, nameKey: member.name_key, memberName: member.full_name, address: QA_REMOTE_ADDRESS, componentId: QA_TEST_COMPONENT_ID };
    run.scope = scope;
    // A run that died mid-way may have left a lock or full buckets behind.
    await deleteLoginLockOf(db, scope.nameKey);
    await deleteQaBuckets(db, scope);

    /** The run's own session, set once the sign-in below succeeds. */
    const signedIn: { session?: Cookies } = {};
    let counter = 0;
    const postedErrorMessages: string[] = [];
    /**
     * An injected request never waits on a socket: a chain of them, each resolved in microtasks,
     * would hold the event loop until the whole check is done while real members' requests wait.
     * Every call of the run first lets the loop serve whatever I/O is pending.
     */
    const inject = (method: HttpMethod, url: string, options: CallOptions = {}) => {
      const session = options.session === undefined ? signedIn.session : options.session;
      const stateChanging = method !== 'GET';
      const contentType = options.contentType === undefined ? (stateChanging ? 'application/json' : null) : options.contentType;
      const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      return app.inject({
        method,
        url,
        remoteAddress: QA_REMOTE_ADDRESS,
        headers: { 'user-agent': 'biggy-qa-self-test', ...(contentType === null ? {} : { 'content-type': contentType }) },
        ...(session === null || session === undefined ? {} : { cookies: session }),
        ...(payload === undefined ? {} : { payload }),
      });
    };
    const call = async (method: HttpMethod, url: string, options: CallOptions = {}) => {
      await yieldToEventLoop();
      return inject(method, url, options);
    };
    const callTogether = async (calls: readonly { method: HttpMethod; url: string; options?: CallOptions }[]) => {
      await yieldToEventLoop();
      return Promise.all(calls.map((entry) => inject(entry.method, entry.url, entry.options)));
    };
    const read = async (url: string) => {
      await yieldToEventLoop();
      const session = signedIn.session;
      const response = await app.inject({
        method: 'GET',
        url,
        remoteAddress: QA_REMOTE_ADDRESS,
        headers: { 'user-agent': 'biggy-qa-self-test' },
        payloadAsStream: true,
        ...(session === undefined ? {} : { cookies: session }),
      });
      let bytes = 0;
      for await (const chunk of response.stream()) bytes += Buffer.byteLength(chunk as Buffer | string);
      return { statusCode: response.statusCode, bytes };
    };
    const login = (pin = config.secrets.qaPin) =>
      call('POST', authRoutes.login.path, { session: null, body: { password: config.secrets.teamPassword, name: member.full_name, pin } });
    // The sign-in routes refuse the QA member: the run's sessions are started in-process.
    const sessions = new SessionStore(db, config.session);
    const newSession = async (): Promise<Cookies> => {
      const token = await startQaSession(db, sessions, member.id, { pin: config.secrets.qaPin, pinPepper: config.secrets.pinPepper }, { ip: QA_REMOTE_ADDRESS, userAgent: 'biggy-qa-self-test' });
      return { [cookieNames(false).session]: token };
    };
    const runToken = `${runId}-${randomBytes(4).toString('hex')}`;
    // Read once per run: the Data Integrity checks each judge one part of it.
    let integrity: Promise<IntegrityReport> | undefined;

    const context: QaContext = {
      app,
      db,
      dialect,
      events,
      member,
      address: QA_REMOTE_ADDRESS,
      settings: {
        qaName: member.full_name,
        teamPassword: config.secrets.teamPassword,
        qaPin: config.secrets.qaPin,
        sessionIdleMs: config.session.idleMs,
        commentLimitPerMinute: config.commentLimitPerMinute,
        errorLogMaxRows: config.errorLogs.maxRows,
      },
      call,
      callTogether,
      read,
      login,
      newSession,
      postedErrorMessages,
      integrity: () => (integrity ??= checkIntegrity(db, dialect)),
      unique: (label) => {
        counter += 1;
        return `QA self-test ${label} ${runToken}-${counter}`;
      },
    };
    signedIn.session = await newSession();
    run.context = context;
  }

  private async runCheck(check: QaCheck, context: QaContext, stragglers: Set<Promise<void>>): Promise<CheckOutcome> {
    const timeoutMs = check.timeoutMs ?? this.options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const work = Promise.resolve().then(() => check.run(context));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        resolve('timeout');
      }, timeoutMs);
    });
    try {
      const first = await Promise.race([work.then(() => 'done' as const), timeout]);
      if (first === 'timeout') {
        // It may still write: the clean-up waits for it (bounded) before removing the run's rows.
        const settled = work.then(
          () => undefined,
          () => undefined,
        );
        stragglers.add(settled);
        return { status: 'failed', reason: `timed out after ${timeoutMs} ms`, durationMs: elapsed() };
      }
      return { status: 'passed', reason: null, durationMs: elapsed() };
    } catch (error) {
      if (error instanceof QaSkip) return { status: 'skipped', reason: error.message, durationMs: elapsed() };
      return { status: 'failed', reason: messageOf(error), durationMs: elapsed() };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Answers why the clean-up failed, or undefined when everything the run made is gone. */
  private async cleanUp(run: { scope?: QaScope; context?: QaContext }, stragglers: Set<Promise<void>>): Promise<string | undefined> {
    if (stragglers.size > 0) {
      await Promise.race([Promise.all(stragglers), sleep(this.options.stragglerGraceMs ?? STRAGGLER_GRACE_MS)]);
    }
    const { scope } = run;
    if (scope === undefined) return undefined;
    try {
      const removed = await deleteQaData(this.deps.app.database.db, scope, run.context?.postedErrorMessages ?? []);
      await this.deps.events.endSessions({ memberId: scope.memberId });
      // Rows removed behind the API's back: the live events tell caches and open pages, on every instance.
      for (const comment of removed.comments) await this.publish({ type: 'comment.deleted', componentId: comment.component_id, commentId: comment.id });
      for (const vote of removed.commentVotes) await this.publish({ type: 'vote.changed', componentId: vote.component_id, commentId: vote.comment_id });
      for (const suggestionId of removed.suggestionVotes) await this.publish({ type: 'suggestion.vote.changed', suggestionId });
      if (removed.errorLogs > 0) await this.publish({ type: 'error-logs.changed' });
      if (removed.pinResets > 0) await this.publish({ type: 'pin-resets.changed' });
      return undefined;
    } catch (error) {
      this.deps.app.log.error({ err: error }, 'QA self-test: clean-up failed');
      return `clean-up failed: ${messageOf(error)}`;
    }
  }

  /** A lost event costs a stale progress line, not the run. */
  private async publish(event: LiveEvent): Promise<void> {
    try {
      await this.deps.events.publish(event);
    } catch (error) {
      this.deps.app.log.warn({ err: error, event: event.type }, 'QA self-test: could not publish an event');
    }
  }
}
