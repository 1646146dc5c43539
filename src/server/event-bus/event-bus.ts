import { randomUUID } from 'node:crypto';
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
  /**
   * Never rejects: it is called after a write has committed, and a write that is stored must not
   * be answered as failed (a retry would store it twice). An event that cannot be sent is logged and
   * every instance is told to resynchronise its streams once it can be (`onGap`).
   */
  publish(event: LiveEvent): Promise<void>;
  subscribe(listener: LiveEventListener): () => void;
  /**
   * For idempotent uses such as dropping cached reads: every event this instance publishes, at
   * once (before `publish` resolves, so the writer's own next read is fresh), and every event of
   * the other instances when it arrives. Each event once: its own events' echo is not repeated
   * (dropping a cache again would only throw away a read made after the write, and under load
   * that is one more reload per write).
   */
  onChange(listener: LiveEventListener): () => void;
  /** False while events may go missing (PostgreSQL: the LISTEN connection is down): caches built on events must not trust them then. */
  readonly reliable: boolean;
  /**
   * Called when events may have been missed: the LISTEN connection was lost or is back, or an
   * instance failed to send one. Whatever was derived from events is to be dropped, and open
   * streams told to refetch.
   */
  onGap(listener: () => void): () => void;
  /** Tells every instance (this one at once) that sessions ended. */
  endSessions(notice: SessionEndNotice): Promise<void>;
  onSessionsEnded(listener: SessionEndListener): () => void;
  close(): Promise<void>;
}

const sessionEndNoticeSchema = z.union([
  z.strictObject({ tokenHash: z.string().regex(/^[0-9a-f]{64}$/) }),
  z.strictObject({ memberId: z.number().int().positive() }),
]);

/**
 * One listener per open SSE stream (a team of hundreds is expected). A listener that throws is
 * reported and skipped: it must neither stop the others nor fail the write that published.
 */
class Listeners<Listener extends (...args: never[]) => void> {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  emit(...args: Parameters<Listener>) {
    for (const listener of [...this.listeners]) {
      try {
        listener(...args);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  add(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** SQLite: one instance per database file, so events stay in the process. */
export class LocalEventBus implements EventBus {
  private readonly listeners = new Listeners<LiveEventListener>();
  private readonly sessionEnds = new Listeners<SessionEndListener>();
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
/** 'Events may have been lost': an instance that could not send one says so here once it can. */
const RESYNC_CHANNEL = 'biggy_resync';

/**
 * Announces ended sessions to every instance on PostgreSQL. Also used by processes without a bus
 * (the admin command line) so a PIN reset from the shell ends the member's streams at once.
 */
export async function notifySessionsEnded(db: Kysely<Database>, notice: SessionEndNotice): Promise<void> {
  await sql`select pg_notify(${SESSION_END_CHANNEL}, ${JSON.stringify(notice)})`.execute(db);
}
const RECONNECT_DELAY_MS = 1000;
/** The payload field naming the instance that sent an event; parseLiveEvent keeps only the event's own fields. */
const ORIGIN_FIELD = 'origin';

function originOf(payload: unknown): unknown {
  return typeof payload === 'object' && payload !== null && ORIGIN_FIELD in payload ? payload[ORIGIN_FIELD] : undefined;
}

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
 *
 * Nothing may be lost silently. While the LISTEN connection is down, events of other instances are
 * missed: when it is back (and listening), every stream of this instance is told to refetch. An
 * event this instance fails to send is missed by every instance: its own streams refetch at once,
 * and a resync notice goes to all instances as soon as the database takes one.
 */
export class PostgresEventBus implements EventBus {
  private readonly listeners: Listeners<LiveEventListener>;
  private readonly gapListeners: Listeners<() => void>;
  private readonly changeListeners: Listeners<LiveEventListener>;
  private readonly sessionEnds: Listeners<SessionEndListener>;
  private client: pg.Client | undefined;
  private everConnected = false;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  /** Tags this instance's events, so their echo through LISTEN is known as its own. */
  private readonly origin = randomUUID();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly connectionString: string,
    private readonly log: FastifyBaseLogger,
  ) {
    const report = (error: unknown) => {
      this.log.error({ err: error }, 'a live-event listener failed');
    };
    this.listeners = new Listeners(report);
    this.gapListeners = new Listeners(report);
    this.changeListeners = new Listeners(report);
    this.sessionEnds = new Listeners(report);
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      if (message.channel === RESYNC_CHANNEL) {
        this.gapListeners.emit();
        return;
      }
      if (message.payload === undefined) return;
      if (message.channel === SESSION_END_CHANNEL) {
        const notice = sessionEndNoticeSchema.safeParse(parsePayload(message.payload));
        if (notice.success) this.sessionEnds.emit(notice.data);
        return;
      }
      if (message.channel !== CHANNEL) return;
      const payload = parsePayload(message.payload);
      const event = parseLiveEvent(payload);
      if (event !== null) {
        if (originOf(payload) !== this.origin) this.changeListeners.emit(event);
        this.listeners.emit(event);
      }
    });
    // Until connected, a failure rejects start() (and the caller retries); 'error' must still have
    // a listener, or it would end the process.
    let connected = false;
    const lost = (error?: Error) => {
      if (!connected || this.client !== client) return;
      this.client = undefined;
      this.gapListeners.emit();
      this.log.warn({ err: error }, 'live-event connection lost; reconnecting');
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => {
      lost();
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      await client.query(`listen ${SESSION_END_CHANNEL}`);
      await client.query(`listen ${RESYNC_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    // Closed while this (re)connect was in flight: nobody would end this connection later.
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    connected = true;
    this.client = client;
    // Listening again: what other instances published while this one was not is lost to it, so
    // its streams refetch now, when every later event is sure to arrive.
    if (this.everConnected) {
      this.log.info('live-event connection restored; streams told to resynchronise');
      this.gapListeners.emit();
    }
    this.everConnected = true;
  }

  /** Retries every second until the database answers again. */
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
    try {
      await sql`select pg_notify(${CHANNEL}, ${JSON.stringify({ ...event, [ORIGIN_FIELD]: this.origin })})`.execute(this.db);
    } catch (error) {
      this.log.warn({ err: error, event: event.type }, 'live event not sent; streams will resynchronise');
      this.gapListeners.emit();
      this.scheduleResyncNotice();
    }
  }

  /** Tells every instance that events were lost, retrying each second until the database takes it. */
  private scheduleResyncNotice() {
    if (this.closed || this.resyncTimer !== undefined) return;
    this.resyncTimer = setTimeout(() => {
      sql`select pg_notify(${RESYNC_CHANNEL}, '')`.execute(this.db).then(
        () => {
          this.resyncTimer = undefined;
        },
        () => {
          this.resyncTimer = undefined;
          this.scheduleResyncNotice();
        },
      );
    }, RECONNECT_DELAY_MS);
  }

  subscribe(listener: LiveEventListener) {
    return this.listeners.add(listener);
  }

  onChange(listener: LiveEventListener) {
    return this.changeListeners.add(listener);
  }

  /**
   * This instance's streams end at once; the others' when the notification arrives, or, if it
   * cannot be sent, at their next session check (each stream checks at every heartbeat).
   */
  async endSessions(notice: SessionEndNotice): Promise<void> {
    this.sessionEnds.emit(notice);
    try {
      await notifySessionsEnded(this.db, notice);
    } catch (error) {
      this.log.warn({ err: error }, 'session end not announced to other instances; their streams end at their next session check');
    }
  }

  onSessionsEnded(listener: SessionEndListener) {
    return this.sessionEnds.add(listener);
  }

  get reliable(): boolean {
    return this.client !== undefined;
  }

  onGap(listener: () => void): () => void {
    return this.gapListeners.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.resyncTimer);
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) await client.end().catch(() => undefined);
  }
}
