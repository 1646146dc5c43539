import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../common/api/live-events.js';
import { openDatabase, type DatabaseHandle } from '../db/connection.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { LocalEventBus, PostgresEventBus, type EventBus } from './event-bus.js';

const created = (commentId: number): LiveEvent => ({ type: 'comment.created', componentId: 'agentic-triage', commentId });

/** Collects what a bus delivers, and waits for the first event that matches. */
function recorder(bus: EventBus) {
  const received: LiveEvent[] = [];
  const waiters = new Set<() => void>();
  const unsubscribe = bus.subscribe((event) => {
    received.push(event);
    for (const wake of waiters) wake();
  });
  const waitFor = (predicate: (event: LiveEvent) => boolean, timeoutMs: number) =>
    new Promise<LiveEvent>((resolve, reject) => {
      const check = () => {
        const found = received.find(predicate);
        if (found === undefined) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(received)}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return { received, waitFor, unsubscribe };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('LocalEventBus', () => {
  it('delivers each event to every subscriber, in order, until they unsubscribe', async () => {
    const bus = new LocalEventBus();
    const first = recorder(bus);
    const second = recorder(bus);
    await bus.publish(created(1));
    await bus.publish({ type: 'vote.changed', componentId: 'agentic-triage', commentId: 1 });
    first.unsubscribe();
    await bus.publish({ type: 'comment.deleted', componentId: 'agentic-triage', commentId: 1 });
    expect(first.received.map((event) => event.type)).toEqual(['comment.created', 'vote.changed']);
    expect(second.received.map((event) => event.type)).toEqual(['comment.created', 'vote.changed', 'comment.deleted']);
    await bus.close();
  });
});

describe.skipIf(process.env.TEST_DATABASE_URL === undefined || process.env.TEST_DATABASE_URL === '')('PostgresEventBus (LISTEN/NOTIFY)', () => {
  const log = pino({ level: 'silent' });
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let connectionString: string;
  const buses: PostgresEventBus[] = [];

  const startBus = async () => {
    const bus = new PostgresEventBus(handle.db, connectionString, log);
    buses.push(bus);
    await bus.start();
    return bus;
  };
  /** Backends of this database whose last statement was the LISTEN: one per running bus. */
  const listenerPids = async () => {
    const result = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %'`.execute(handle.db);
    return result.rows.map((row) => row.pid);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.databaseUrl === undefined) throw new Error('TEST_DATABASE_URL is set but no PostgreSQL database was created');
    connectionString = database.databaseUrl;
    handle = openDatabase({ dataDir: database.dataDir, databaseUrl: connectionString, poolSize: 2 });
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    await handle.close();
    await database.drop();
  });

  it('delivers an event published on one instance to every instance exactly once, itself included', async () => {
    const a = await startBus();
    const b = await startBus();
    const onA = recorder(a);
    const onB = recorder(b);
    await a.publish(created(101));
    await Promise.all([onA.waitFor((event) => 'commentId' in event && event.commentId === 101, 2000), onB.waitFor((event) => 'commentId' in event && event.commentId === 101, 2000)]);
    await b.publish(created(102));
    await Promise.all([onA.waitFor((event) => 'commentId' in event && event.commentId === 102, 2000), onB.waitFor((event) => 'commentId' in event && event.commentId === 102, 2000)]);
    await sleep(200);
    expect(onA.received).toEqual([created(101), created(102)]);
    expect(onB.received).toEqual([created(101), created(102)]);
    onA.unsubscribe();
    onB.unsubscribe();
  });

  it("tells onChange listeners of its own event before publish resolves, not again when LISTEN brings it, and of another instance's when it arrives", async () => {
    const bus = await startBus();
    const other = await startBus();
    const changes: LiveEvent[] = [];
    bus.onChange((event) => changes.push(event));
    const seen = recorder(bus);
    const publishing = bus.publish(created(150));
    // At once, in the publishing call: the writer's caches are dropped before its answer goes out,
    // not a LISTEN round trip later.
    expect(changes).toEqual([created(150)]);
    await publishing;
    await seen.waitFor((event) => 'commentId' in event && event.commentId === 150, 2000);
    await other.publish(created(151));
    await seen.waitFor((event) => 'commentId' in event && event.commentId === 151, 2000);
    // The echo of its own event came before the other's (one channel, in commit order): already seen.
    expect(changes).toEqual([created(150), created(151)]);
    seen.unsubscribe();
  });

  it('ignores a malformed or foreign payload on its channel and keeps delivering', async () => {
    const bus = await startBus();
    const seen = recorder(bus);
    await sql`select pg_notify('biggy_events', 'not json at all')`.execute(handle.db);
    await sql`select pg_notify('biggy_events', ${JSON.stringify({ type: 'comment.exploded', commentId: 'x' })})`.execute(handle.db);
    await sql`select pg_notify('biggy_events', '')`.execute(handle.db);
    await bus.publish(created(201));
    await seen.waitFor((event) => 'commentId' in event && event.commentId === 201, 2000);
    expect(seen.received).toEqual([created(201)]);
    seen.unsubscribe();
  });

  it('reconnects and listens again after its connection is killed', async () => {
    const bus = await startBus();
    const seen = recorder(bus);
    let gaps = 0;
    bus.onGap(() => {
      gaps += 1;
    });
    expect(bus.reliable).toBe(true);
    const before = await listenerPids();
    expect(before.length).toBeGreaterThan(0);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %'`.execute(handle.db);
    // Events published while it is away are lost by design; publish until one arrives again.
    const deadline = Date.now() + 8000;
    let commentId = 300;
    while (!seen.received.some((event) => 'commentId' in event && event.commentId >= 300) && Date.now() < deadline) {
      commentId += 1;
      await bus.publish(created(commentId));
      await sleep(100);
    }
    expect(seen.received.some((event) => 'commentId' in event && event.commentId >= 300)).toBe(true);
    // Events were missed while it was away: it said so when the connection dropped (caches stop
    // trusting events) and again once it listens (streams refetch when nothing later can be missed).
    expect(gaps).toBe(2);
    expect(bus.reliable).toBe(true);
    const after = await listenerPids();
    expect(after.some((pid) => !before.includes(pid))).toBe(true);
    seen.unsubscribe();
  });

  it('close() during a (re)connect does not leave the new connection listening', async () => {
    const bus = new PostgresEventBus(handle.db, connectionString, log);
    const starting = bus.start();
    await bus.close();
    await starting;
    await sleep(100);
    const seen = recorder(bus);
    await bus.publish(created(501));
    await sleep(200);
    expect(seen.received).toEqual([]);
    expect(await listenerPids()).toHaveLength(buses.length);
  });

  it('close() ends its listening connection and delivers nothing more', async () => {
    for (const bus of buses.splice(0)) await bus.close();
    await sleep(100);
    expect(await listenerPids()).toEqual([]);
    const bus = await startBus();
    const seen = recorder(bus);
    expect(await listenerPids()).toHaveLength(1);
    await bus.close();
    await bus.publish(created(401));
    await sleep(200);
    expect(seen.received).toEqual([]);
    expect(await listenerPids()).toEqual([]);
  });
});
