import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.js';

/** A load the test answers when it wants, to interleave it with invalidations. */
function deferred() {
  let resolve: (json: string) => void = () => undefined;
  const promise = new Promise<string>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function setup(options: { maxAgeMs?: number } = {}) {
  const bus = { reliable: true };
  let clock = 1_000;
  const cache = new ReadCache<string>(bus, { maxAgeMs: options.maxAgeMs ?? 10_000, now: () => clock });
  let loads = 0;
  const load = (json: string) => () => {
    loads += 1;
    return Promise.resolve(json);
  };
  return {
    bus,
    cache,
    load,
    loads: () => loads,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe('ReadCache', () => {
  it('answers a key from memory until it is invalidated, and keeps other keys', async () => {
    const { cache, load, loads } = setup();
    expect(await cache.get('a', load('a1'))).toBe('a1');
    expect(await cache.get('a', load('a2'))).toBe('a1');
    expect(await cache.get('b', load('b1'))).toBe('b1');
    expect(loads()).toBe(2);
    cache.invalidate('a');
    expect(await cache.get('a', load('a3'))).toBe('a3');
    expect(await cache.get('b', load('b2'))).toBe('b1');
    cache.invalidateAll();
    expect(await cache.get('b', load('b3'))).toBe('b3');
  });

  it('never stores a load that started before the key changed', async () => {
    const { cache, load } = setup();
    const slow = deferred();
    const stale = cache.get('a', () => slow.promise);
    cache.invalidate('a');
    slow.resolve('before the change');
    // The caller that asked before the change gets the answer of its time...
    expect(await stale).toBe('before the change');
    // ...but the next reader does not.
    expect(await cache.get('a', load('after the change'))).toBe('after the change');

    const slower = deferred();
    const staleToo = cache.get('b', () => slower.promise);
    cache.invalidateAll();
    slower.resolve('before the gap');
    await staleToo;
    expect(await cache.get('b', load('after the gap'))).toBe('after the gap');
  });

  it('shares one load among concurrent misses of a key, but not across a change', async () => {
    const { cache } = setup();
    const first = deferred();
    let loads = 0;
    const counted = (promise: Promise<string>) => () => {
      loads += 1;
      return promise;
    };
    const waiting = [cache.get('a', counted(first.promise)), cache.get('a', counted(first.promise)), cache.get('a', counted(first.promise))];
    expect(loads).toBe(1);
    cache.invalidate('a');
    const second = deferred();
    const afterChange = cache.get('a', counted(second.promise));
    expect(loads).toBe(2);
    first.resolve('old');
    second.resolve('new');
    expect(await Promise.all(waiting)).toEqual(['old', 'old', 'old']);
    expect(await afterChange).toBe('new');
    expect(await cache.get('a', counted(Promise.resolve('unused')))).toBe('new');
    expect(loads).toBe(2);
  });

  it('passes a failed load on to every waiter and caches nothing', async () => {
    const { cache, load } = setup();
    const failing = () => Promise.reject(new Error('database down'));
    await expect(Promise.all([cache.get('a', failing), cache.get('a', failing)])).rejects.toThrow('database down');
    expect(cache.size).toBe(0);
    expect(await cache.get('a', load('back'))).toBe('back');
  });

  it('caches nothing while the event bus may miss events', async () => {
    const { bus, cache, load, loads } = setup();
    bus.reliable = false;
    await cache.get('a', load('1'));
    await cache.get('a', load('2'));
    expect(loads()).toBe(2);
    expect(cache.size).toBe(0);

    // A load that was running when the bus went unreliable is not kept either.
    bus.reliable = true;
    const slow = deferred();
    const running = cache.get('a', () => slow.promise);
    bus.reliable = false;
    slow.resolve('3');
    await running;
    bus.reliable = true;
    expect(await cache.get('a', load('4'))).toBe('4');
  });

  it('reloads an entry older than its maximum age even without an event', async () => {
    const { cache, load, advance } = setup({ maxAgeMs: 5_000 });
    await cache.get('a', load('1'));
    advance(4_999);
    expect(await cache.get('a', load('2'))).toBe('1');
    advance(1);
    expect(await cache.get('a', load('3'))).toBe('3');
  });
});
