import { describe, expect, it } from 'vitest';
import { Coalescer } from './coalescer.js';

/** A computation the test finishes by hand, recording when it started. */
function gate() {
  let open: (value: string) => void = () => undefined;
  const done = new Promise<string>((resolve) => (open = resolve));
  return { done, open };
}

describe('Coalescer', () => {
  it('runs one computation per key, and one follow-up shared by every request made meanwhile', async () => {
    const coalescer = new Coalescer<string>();
    const gates = [gate(), gate(), gate()];
    let started = 0;
    const compute = () => {
      const current = gates[started];
      started += 1;
      if (current === undefined) throw new Error('too many computations');
      return current.done;
    };

    const first = coalescer.run('component', compute);
    const during = Array.from({ length: 20 }, () => coalescer.run('component', compute));
    expect(started).toBe(1);

    gates[0]?.open('first');
    expect(await first).toBe('first');
    // The follow-up starts after the first ends: it reads what was written before those requests.
    await Promise.resolve();
    expect(started).toBe(2);
    gates[1]?.open('second');
    expect(new Set(await Promise.all(during))).toEqual(new Set(['second']));
    expect(started).toBe(2);
    expect(coalescer.size).toBe(0);
  });

  it('keeps keys apart, and goes on after a failure', async () => {
    const coalescer = new Coalescer<string>();
    const failing = coalescer.run('a', () => Promise.reject(new Error('boom')));
    const other = coalescer.run('b', () => Promise.resolve('b'));
    const after = coalescer.run('a', () => Promise.resolve('a again'));
    await expect(failing).rejects.toThrow('boom');
    expect(await other).toBe('b');
    expect(await after).toBe('a again');
  });
});
