import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isCommentEvent, type LiveEvent } from '../../common/api/live-events.js';
import type { EventBus, LiveEventListener } from '../event-bus/event-bus.js';
import { cachedJson } from './cached-json.js';
import type { App } from './types.js';

/** A bus whose reliability the test switches, delivering this instance's events as it publishes them. */
class TestBus implements EventBus {
  reliable = true;
  private readonly changes = new Set<LiveEventListener>();
  private readonly gaps = new Set<() => void>();

  publish(event: LiveEvent): Promise<void> {
    for (const listener of this.changes) listener(event);
    return Promise.resolve();
  }
  subscribe(): () => void {
    return () => undefined;
  }
  onChange(listener: LiveEventListener): () => void {
    this.changes.add(listener);
    return () => this.changes.delete(listener);
  }
  onGap(listener: () => void): () => void {
    this.gaps.add(listener);
    return () => this.gaps.delete(listener);
  }
  /** The LISTEN connection dropped: events may have been missed. */
  gap(): void {
    this.reliable = false;
    for (const listener of this.gaps) listener();
  }
  endSessions(): Promise<void> {
    return Promise.resolve();
  }
  onSessionsEnded(): () => void {
    return () => undefined;
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

interface Gate {
  key: string;
  /** The version of the key the load read: its query ran as it started, the worst case for staleness. */
  version: number;
  release: () => void;
  fail: (error: Error) => void;
}

const answerSchema = z.object({ key: z.string(), version: z.number() });

/**
 * A route over a fake table of versioned keys. A write commits (the key's version goes up), then
 * publishes its event, as the services do; each load reads the version when it starts and then
 * waits until the test releases it, so the test decides every interleaving.
 */
function setup() {
  const bus = new TestBus();
  const app: App = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const versions = new Map<string, number>();
  const gates: Gate[] = [];
  const misses: string[] = [];
  const versionOf = (key: string) => versions.get(key) ?? 0;

  const handle = cachedJson(app, bus, {
    url: '/items/:key',
    schema: { params: z.strictObject({ key: z.string() }) },
    key: (request) => request.params.key,
    beforeLoad: (request) => {
      misses.push(request.params.key);
      return Promise.resolve();
    },
    load: async (request) => {
      const { key } = request.params;
      const version = versionOf(key);
      await new Promise<void>((resolve, reject) => {
        gates.push({ key, version, release: resolve, fail: reject });
      });
      return { key, version };
    },
    invalidatedBy: (event) => {
      if (event.type === 'ai-prompt.changed') return 'all';
      return isCommentEvent(event) ? [event.componentId] : 'none';
    },
  });

  const write = async (key: string) => {
    versions.set(key, versionOf(key) + 1);
    await bus.publish({ type: 'vote.changed', componentId: key, commentId: 1 });
  };

  /** A GET, with the version of its key that was committed before it began: it must see at least that one. */
  const read = (key: string) => {
    const committedBefore = versionOf(key);
    const response = app.inject({ method: 'GET', url: `/items/${key}` }).then((reply) => {
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      return answerSchema.parse(reply.json());
    });
    return { committedBefore, response };
  };

  /** Waits until `count` loads have started (their requests went through the routing). */
  const loadsStarted = async (count: number) => {
    for (let turn = 0; gates.length < count; turn += 1) {
      if (turn > 1000) throw new Error(`only ${gates.length} of ${count} loads started`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const gate = (index: number): Gate => {
    const found = gates[index];
    if (found === undefined) throw new Error(`no load ${index}`);
    return found;
  };

  return { app, bus, handle, gates, misses, versionOf, write, read, loadsStarted, gate };
}

type Setup = ReturnType<typeof setup>;

/** Every answer is at least as new as the writes that completed before its request began. */
async function expectFresh(...reads: ReturnType<Setup['read']>[]) {
  for (const { committedBefore, response } of reads) {
    const answer = await response;
    expect(answer.version).toBeGreaterThanOrEqual(committedBefore);
  }
}

let open: App | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

function started(): Setup {
  const context = setup();
  open = context.app;
  return context;
}

describe('cachedJson', () => {
  it('answers a key from memory until an event drops it, and shares one load among concurrent misses', async () => {
    const { read, loadsStarted, gate, gates, misses, write, handle } = started();
    const first = [read('a'), read('a'), read('a')];
    await loadsStarted(1);
    gate(0).release();
    await expectFresh(...first);
    expect(gates).toHaveLength(1);
    expect(misses).toEqual(['a', 'a', 'a']);
    expect(handle.size).toBe(1);

    await expectFresh(read('a'));
    expect(gates).toHaveLength(1);
    expect(misses).toHaveLength(3);

    await write('a');
    const after = read('a');
    await loadsStarted(2);
    gate(1).release();
    expect((await after.response).version).toBe(1);
  });

  it('never stores a load that an invalidation overtook, whichever load ends first', async () => {
    for (const order of [
      [0, 1],
      [1, 0],
    ]) {
      const { read, loadsStarted, gate, gates, write } = started();
      const before = read('a');
      await loadsStarted(1);
      // The write completes while the first load (which read version 0) is in flight.
      await write('a');
      const after = read('a');
      await loadsStarted(2);
      expect(gate(0).version).toBe(0);
      expect(gate(1).version).toBe(1);
      for (const index of order) gate(index).release();
      // The request that began before the write may get the old answer; the one after may not.
      expect((await before.response).version).toBe(0);
      expect((await after.response).version).toBe(1);
      // Nothing stale was kept: the next read is the new answer, from memory.
      await expectFresh(read('a'));
      expect(gates).toHaveLength(2);
      await open?.close();
      open = undefined;
    }
  });

  it('does not let a request that began after a write join a load that began before it', async () => {
    const { read, loadsStarted, gate, gates, write } = started();
    const early = read('a');
    await loadsStarted(1);
    const joined = read('a');
    await write('a');
    const late = read('a');
    await loadsStarted(2);
    expect(gates).toHaveLength(2);
    gate(0).release();
    gate(1).release();
    await expectFresh(early, joined, late);
    expect((await late.response).version).toBe(1);
  });

  it('drops a key when an invalidation comes between the end of a load and its storing', async () => {
    const { read, loadsStarted, gate, write } = started();
    const reading = read('a');
    await loadsStarted(1);
    gate(0).release();
    // Same tick as the release: the write's event arrives before the load's answer is stored.
    await write('a');
    expect((await reading.response).version).toBe(0);
    const next = read('a');
    await loadsStarted(2);
    gate(1).release();
    expect((await next.response).version).toBe(1);
  });

  it('answers a read after many parallel writes with the last of them', async () => {
    const { read, loadsStarted, gate, gates, write } = started();
    const warm = read('a');
    await loadsStarted(1);
    gate(0).release();
    await warm.response;

    // Reads interleaved with forty writes, each load held until all the writes are done.
    const reads: ReturnType<Setup['read']>[] = [];
    await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        await write('a');
        if (index % 4 === 0) reads.push(read('a'));
      }),
    );
    const last = read('a');
    reads.push(last);
    await loadsStarted(2);
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    // Release the newest load first, then the older ones: none of the older ones may be stored.
    for (const held of [...gates].reverse()) held.release();
    await expectFresh(...reads);
    expect((await last.response).version).toBe(40);
    const count = gates.length;
    expect((await read('a').response).version).toBe(40);
    expect(gates).toHaveLength(count);
  });

  it('keeps other keys when one changes, and drops every key on an "all" event', async () => {
    const { read, loadsStarted, gate, gates, bus } = started();
    const a = read('a');
    const b = read('b');
    await loadsStarted(2);
    gate(0).release();
    gate(1).release();
    await expectFresh(a, b);
    await bus.publish({ type: 'vote.changed', componentId: 'a', commentId: 1 });
    const again = [read('a'), read('b')];
    await loadsStarted(3);
    gate(2).release();
    await expectFresh(...again);
    expect(gates.map((held) => held.key)).toEqual(['a', 'b', 'a']);

    await bus.publish({ type: 'ai-prompt.changed', promptId: 1 });
    const afterAll = [read('a'), read('b')];
    await loadsStarted(5);
    gate(3).release();
    gate(4).release();
    await expectFresh(...afterAll);
  });

  it('keeps nothing while the bus may miss events, and nothing that was loading when it started missing them', async () => {
    const { read, loadsStarted, gate, gates, bus, handle } = started();
    const running = read('a');
    await loadsStarted(1);
    bus.gap();
    gate(0).release();
    await running.response;
    expect(handle.size).toBe(0);

    const unreliable = [read('a'), read('a')];
    await loadsStarted(3);
    gate(1).release();
    gate(2).release();
    await expectFresh(...unreliable);
    expect(handle.size).toBe(0);

    bus.reliable = true;
    const back = read('a');
    await loadsStarted(4);
    gate(3).release();
    await expectFresh(back);
    expect(handle.size).toBe(1);
    expect(gates).toHaveLength(4);
  });

  it('passes a failed load to every request sharing it and keeps nothing', async () => {
    const { app, loadsStarted, gate, handle } = started();
    const failing = [app.inject({ method: 'GET', url: '/items/a' }), app.inject({ method: 'GET', url: '/items/a' })];
    await loadsStarted(1);
    gate(0).fail(new Error('database down'));
    for (const reply of await Promise.all(failing)) expect(reply.statusCode).toBe(500);
    expect(handle.size).toBe(0);
  });
});

describe('cachedJson per viewer', () => {
  it('loads a key once for every viewer, presents it to each, and drops every viewer\'s answer with the key', async () => {
    const bus = new TestBus();
    const app: App = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    open = app;
    let loads = 0;
    let presentations = 0;
    cachedJson(app, bus, {
      url: '/owned/:key',
      schema: { params: z.strictObject({ key: z.string() }) },
      key: (request) => request.params.key,
      load: () => {
        loads += 1;
        return Promise.resolve({ owner: 'ann', load: loads });
      },
      perViewer: {
        viewer: (request) => String(request.headers['x-viewer']),
        present: (value, request) => {
          presentations += 1;
          return { ...value, mine: value.owner === request.headers['x-viewer'] };
        },
      },
      invalidatedBy: (event) => (isCommentEvent(event) ? [event.componentId] : 'none'),
    });
    const read = async (viewer: string) => (await app.inject({ method: 'GET', url: '/owned/a', headers: { 'x-viewer': viewer } })).json<unknown>();

    expect(await read('ann')).toEqual({ owner: 'ann', load: 1, mine: true });
    expect(await read('bob')).toEqual({ owner: 'ann', load: 1, mine: false });
    expect(await read('ann')).toEqual({ owner: 'ann', load: 1, mine: true });
    expect([loads, presentations]).toEqual([1, 2]);

    await bus.publish({ type: 'vote.changed', componentId: 'a', commentId: 1 });
    expect(await read('bob')).toEqual({ owner: 'ann', load: 2, mine: false });
    expect(await read('ann')).toEqual({ owner: 'ann', load: 2, mine: true });
    expect([loads, presentations]).toEqual([2, 4]);
  });
});
