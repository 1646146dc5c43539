import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ENROLLMENT_LINK_PREFIX } from '../../../common/api/auth.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { hashToken } from '../auth/secrets.js';
import { deleteEnrollmentToken, findEnrolledMember, upsertEnrollmentToken } from './repo.js';

/** How long an enrollment link works: long enough to reach someone over a weekend. */
export const ENROLLMENT_LIFETIME_MS = 72 * 3_600_000;

/** A token is 32 random bytes in base64url: exactly 43 characters of that alphabet. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export interface EnrollmentLink {
  url: string;
  expiresAt: number;
}

export function isEnrollmentTokenShaped(token: string): boolean {
  return TOKEN_FORMAT.test(token);
}

export function enrollmentUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${ENROLLMENT_LINK_PREFIX}${token}`;
}

/**
 * Issues a member's single-use enrollment link: 256 random bits, only their sha256 stored, valid
 * 72 hours; it replaces any earlier link of the member. The link is shown once and never stored.
 */
export async function issueEnrollmentLink(db: Kysely<Database>, memberId: number, publicUrl: string, now = Date.now()): Promise<EnrollmentLink> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + ENROLLMENT_LIFETIME_MS;
  await upsertEnrollmentToken(db, { memberId, tokenHash: hashToken(token), createdAt: now, expiresAt });
  return { url: enrollmentUrl(publicUrl, token), expiresAt };
}

/** The member an enrollment token lets create a PIN, if it is live. */
export async function memberOfEnrollment(db: Kysely<Database>, token: string | undefined, now = Date.now()): Promise<MemberRow | undefined> {
  if (token === undefined || !isEnrollmentTokenShaped(token)) return undefined;
  return findEnrolledMember(db, hashToken(token), now);
}

export function consumeEnrollment(db: Kysely<Database>, token: string, memberId: number): Promise<boolean> {
  return deleteEnrollmentToken(db, hashToken(token), memberId);
}
