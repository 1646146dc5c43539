import { hash, verify } from '@node-rs/argon2';
import { createHash, timingSafeEqual } from 'node:crypto';

/** OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): ~11 ms a hash on this app's hardware. */
// `algorithm: 2` is Algorithm.Argon2id; the enum is a const enum that verbatimModuleSyntax cannot import.
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export async function hashPin(pin: string, pepper: string): Promise<string> {
  return hash(pin, { ...ARGON2_OPTIONS, secret: Buffer.from(pepper) });
}

export async function verifyPin(pinHash: string, pin: string, pepper: string): Promise<boolean> {
  try {
    return await verify(pinHash, pin, { secret: Buffer.from(pepper) });
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
