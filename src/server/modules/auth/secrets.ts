import { hash, verify } from '@node-rs/argon2';
import { createHash, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';

/** OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): ~11 ms a hash on this app's hardware. */
// `algorithm: 2` is Algorithm.Argon2id; the enum is a const enum that verbatimModuleSyntax cannot import.
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Runs at most `limit` of the calls given to it at once; the others wait their turn, first come
 * first served.
 */
export function concurrencyLimit(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) {
      // Woken by a call that finished, which hands its slot over: `running` stays as it is.
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      running += 1;
    }
    try {
      return await task();
    } finally {
      const wake = waiting.shift();
      if (wake === undefined) running -= 1;
      else wake();
    }
  };
}

/**
 * Hashes and checks at most one per core at once (two at most): each takes 19 MiB while it runs,
 * and they would otherwise fill libuv's four threads, so a burst of sign-ins took 80 MiB at once
 * and left file reads queued behind them. On a CPU-bound hash, more at once than cores is no faster.
 */
export const ARGON2_AT_ONCE = Math.min(2, availableParallelism());
const argon2Slot = concurrencyLimit(ARGON2_AT_ONCE);

export async function hashPin(pin: string, pepper: string): Promise<string> {
  return argon2Slot(() => hash(pin, { ...ARGON2_OPTIONS, secret: Buffer.from(pepper) }));
}

export async function verifyPin(pinHash: string, pin: string, pepper: string): Promise<boolean> {
  try {
    return await argon2Slot(() => verify(pinHash, pin, { secret: Buffer.from(pepper) }));
  } catch {
    // A malformed stored hash is a failed check, never a 500.
    return false;
  }
}

let decoyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real PIN check, so an unknown name or a wrong team password cannot be
 * told from a wrong PIN by the response time.
 */
export async function verifyDecoy(pepper: string): Promise<void> {
  decoyHash ??= hashPin('0000', pepper);
  await verifyPin(await decoyHash, '9999', pepper);
}

/** Constant-time comparison of shared secrets of any length (hashing first equalises lengths). */
export function secretsMatch(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
