import { EventEmitter } from 'node:events';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { parseLiveEvent, type LiveEvent } from '../../common/api/live-events.js';
import type { Database } from '../db/schema.js';

export type LiveEventListener = (event: LiveEvent) => void;

/**
 * Sessions that ended (logout, a PIN reset, deactivation…): every instance closes the live-event
 * streams they opened. Never sent to a browser.
 */
export type SessionEndNotice = { tokenHash: string } | { memberId: number };
export type SessionEndListener = (notice: SessionEndNotice) => void;

/** Publishes change events to every connected client of every instance. */
export interface EventBus {
  publish(event: LiveEvent): Promise<void>;
  subscribe(listener: LiveEventListener): () => void;
  /**
   * For idempotent uses such as dropping cached reads: every event this instance publishes, at
   * once (before `publish` resolves, so the writer's own next read is fresh), and every event of
   * any instance when it arrives — so an event of this instance may come twice.
   */
  onChange(listener: LiveEventListener): () => void;
  /** False while events may go missing (PostgreSQL: the LISTEN connection is down): caches built on events must not trust them then. */
  readonly reliable: boolean;
  /** Called when events may have been missed since the last call: whatever was derived from them is to be dropped. */
  onGap(listener: () => void): () => void;
  /** Tells every instance (this one at once) that sessions ended. */
  endSessions(notice: SessionEndNotice): Promise<void>;
  onSessionsEnded(listener: SessionEndListener): () => void;
  close(): Promise<void>;
}

class SessionEndListeners {
  private readonly listeners = new Set<SessionEndListener>();

  emit(notice: SessionEndNotice) {
    for (const listener of this.listeners) listener(notice);
  }

  add(listener: SessionEndListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

const sessionEndNoticeSchema = z.union([
  z.strictObject({ tokenHash: z.string().regex(/^[0-9a-f]{64}$/) }),
  z.strictObject({ memberId: z.number().int().positive() }),
]);

class Listeners {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open SSE stream; a team of hundreds is expected, not a leak.
    this.emitter.setMaxListeners(0);
  }

  emit(event: LiveEvent) {
    this.emitter.emit('event', event);
  }

  add(listener: LiveEventListener): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}

/** SQLite: one instance per database file, so events stay in the process. */
export class LocalEventBus implements EventBus {
  private readonly listeners = new Listeners();
  private readonly sessionEnds = new SessionEndListeners();
  readonly reliable = true;

  publish(event: LiveEvent): Promise<void> {
    this.listeners.emit(event);
    return Promise.resolve();
  }

  subscribe(listener: LiveEventListener) {
    return this.listeners.add(listener);
  }

  onChange(listener: LiveEventListener) {
    return this.listeners.add(listener);
  }

  /** In one process nothing is ever missed. */
  onGap(): () => void {
    return () => undefined;
  }

  endSessions(notice: SessionEndNotice): Promise<void> {
    this.sessionEnds.emit(notice);
    return Promise.resolve();
  }

  onSessionsEnded(listener: SessionEndListener) {
    return this.sessionEnds.add(listener);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

const CHANNEL = 'biggy_events';
const SESSION_END_CHANNEL = 'biggy_session_ends';

/**
 * Announces ended sessions to every instance on PostgreSQL. Also used by processes without a bus
 * (the admin command line) so a PIN reset from the shell ends the member's streams at once.
 */
export async function notifySessionsEnded(db: Kysely<Database>, notice: SessionEndNotice): Promise<void> {
  await sql`select pg_notify(${SESSION_END_CHANNEL}, ${JSON.stringify(notice)})`.execute(db);
}
const RECONNECT_DELAY_MS = 1000;

/** Anyone with database access can NOTIFY this channel: a payload that is not JSON is ignored, not thrown (a throw here is uncaught and ends the process). */
function parsePayload(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

/**
 * PostgreSQL: NOTIFY on publish, LISTEN on a dedicated connection. Every instance, this one
 * included, receives each event exactly once through LISTEN, so local delivery takes that path too.
 */
export class PostgresEventBus implements EventBus {
  private readonly listeners = new Listeners();
  private readonly gapListeners = new Set<() => void>();
  private readonly changeListeners = new Listeners();
  private readonly sessionEnds = new SessionEndListeners();
  private client: pg.Client | undefined;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly connectionString: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      if (message.payload === undefined) return;
      if (message.channel === SESSION_END_CHANNEL) {
        const notice = sessionEndNoticeSchema.safeParse(parsePayload(message.payload));
        if (notice.success) this.sessionEnds.emit(notice.data);
        return;
      }
      if (message.channel !== CHANNEL) return;
      const event = parseLiveEvent(parsePayload(message.payload));
      if (event !== null) {
        this.changeListeners.emit(event);
        this.listeners.emit(event);
      }
    });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      for (const listener of this.gapListeners) listener();
      this.log.warn({ err: error }, 'live-event connection lost; reconnecting');
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => {
      lost();
    });
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    await client.query(`listen ${SESSION_END_CHANNEL}`);
    // Closed while this (re)connect was in flight: nobody would end this connection later.
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  /** Retries every second until the database answers again; events published meanwhile are lost, and clients refetch on reconnect. */
  private scheduleReconnect() {
    if (this.closed || this.reconnectTimer !== undefined) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.start().catch((error: unknown) => {
        this.log.warn({ err: error }, 'live-event reconnect failed');
        this.scheduleReconnect();
      });
    }, RECONNECT_DELAY_MS);
  }

  async publish(event: LiveEvent): Promise<void> {
    this.changeListeners.emit(event);
    await sql`select pg_notify(${CHANNEL}, ${JSON.stringify(event)})`.execute(this.db);
  }

  subscribe(listener: LiveEventListener) {
    return this.listeners.add(listener);
  }

  onChange(listener: LiveEventListener) {
    return this.changeListeners.add(listener);
  }

  /** This instance's streams end at once; the others' when the notification arrives. */
  async endSessions(notice: SessionEndNotice): Promise<void> {
    this.sessionEnds.emit(notice);
    await notifySessionsEnded(this.db, notice);
  }

  onSessionsEnded(listener: SessionEndListener) {
    return this.sessionEnds.add(listener);
  }

  get reliable(): boolean {
    return this.client !== undefined;
  }

  onGap(listener: () => void): () => void {
    this.gapListeners.add(listener);
    return () => this.gapListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) await client.end().catch(() => undefined);
  }
}
