import { describe, expect, it } from 'vitest';
import { ARGON2_AT_ONCE, concurrencyLimit, hashPin, verifyPin } from './secrets.js';

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
  it('hashes and checks several PINs at once, a few at a time', async () => {
    expect(ARGON2_AT_ONCE).toBeGreaterThanOrEqual(1);
    expect(ARGON2_AT_ONCE).toBeLessThanOrEqual(2);
    const pins = ['1111', '2222', '3333', '4444', '5555'];
    const hashes = await Promise.all(pins.map((pin) => hashPin(pin, 'pepper')));
    const checks = await Promise.all(hashes.map((hash, i) => verifyPin(hash, pins[i] ?? '', 'pepper')));
    expect(checks).toEqual([true, true, true, true, true]);
    expect(await verifyPin(hashes[0] ?? '', '9999', 'pepper')).toBe(false);
    expect(await verifyPin('not a hash', '1111', 'pepper')).toBe(false);
  });
});
