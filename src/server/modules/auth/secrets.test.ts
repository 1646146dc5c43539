import { describe, expect, it, vi } from 'vitest';
import * as argon2 from '@node-rs/argon2';
import { ARGON2_AT_ONCE, concurrencyLimit, hashPin, verifyPin } from './secrets.js';

// The native functions, behind spies the concurrency test times; the other tests run them as they are.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof argon2>();
  return { ...real, hash: vi.fn(real.hash), verify: vi.fn(real.verify) };
});

/** A task that records how many tasks run at once, and finishes when told. */
function gate(counter: { now: number; most: number }) {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const task = async () => {
    counter.now += 1;
    counter.most = Math.max(counter.most, counter.now);
    await done;
    counter.now -= 1;
    return 'ok';
  };
  return { task, finish };
}

describe('concurrencyLimit', () => {
  it('runs at most its limit at once, the rest in the order they came', async () => {
    const limited = concurrencyLimit(2);
    const counter = { now: 0, most: 0 };
    const gates = Array.from({ length: 5 }, () => gate(counter));
    const started: number[] = [];
    const results = gates.map(({ task }, i) =>
      limited(async () => {
        started.push(i);
        return task();
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    gates[1]?.finish();
    await results[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const { finish } of gates) finish();
    expect(await Promise.all(results)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(counter.most).toBe(2);
  });

  it('frees the slot of a call that failed', async () => {
    const limited = concurrencyLimit(1);
    await expect(limited(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limited(() => Promise.resolve(7))).toBe(7);
  });
});

describe('PIN hashing', () => {
  it('runs at most ARGON2_AT_ONCE hashes and checks at once, and every call still answers', async () => {
    const counter = { now: 0, most: 0 };
    // The native hash, timed by the test: each call counts itself while it runs.
    const counted = async <T>(value: T): Promise<T> => {
      counter.now += 1;
      counter.most = Math.max(counter.most, counter.now);
      await new Promise((resolve) => setImmediate(resolve));
      counter.now -= 1;
      return value;
    };
    const hash = vi.mocked(argon2.hash).mockImplementation(() => counted('hashed'));
    const verify = vi.mocked(argon2.verify).mockImplementation(() => counted(true));
    try {
      const answers = await Promise.all([
        ...['1111', '2222', '3333', '4444'].map((pin) => hashPin(pin, 'pepper')),
        ...['1111', '2222', '3333', '4444'].map((pin) => verifyPin('hashed', pin, 'pepper')),
      ]);
      expect(answers).toEqual(['hashed', 'hashed', 'hashed', 'hashed', true, true, true, true]);
      expect(counter.most).toBe(ARGON2_AT_ONCE);
    } finally {
      hash.mockRestore();
      verify.mockRestore();
    }
  });

  it('hashes and checks real PINs, and a malformed hash is a failed check', async () => {
    const hashed = await hashPin('1234', 'pepper');
    expect(await verifyPin(hashed, '1234', 'pepper')).toBe(true);
    expect(await verifyPin(hashed, '9999', 'pepper')).toBe(false);
    expect(await verifyPin('not a hash', '1234', 'pepper')).toBe(false);
  });
});
