import { nameKey } from '../../common/names.js';
import type { App } from '../http/types.js';
import { cookieNames } from '../modules/auth/guards.js';
import { hashPin } from '../modules/auth/secrets.js';
import { startQaSession } from '../modules/auth/service.js';
import { SessionStore } from '../modules/auth/sessions.js';
import { findMemberByKey, setFirstPinHash } from '../modules/members/repo.js';
import { addMember } from '../modules/members/service.js';
import { issueEnrollmentLink } from '../modules/enrollment/service.js';
import { TEST_SECRETS } from './test-app.js';

/** Session cookies by name, as `app.inject({ cookies })` takes them. */
export type SessionCookies = Record<string, string>;

/**
 * Makes `fullName` a member with `pin` (unless they already have a PIN) and signs them in through
 * POST /api/login (the QA member, which that route refuses, the self-test's way); answers the
 * cookies of that session. Throws when the sign-in is refused.
 *
 * Every call is one sign-in attempt from 127.0.0.1: a test that signs in more than ten members
 * builds its app with a higher `signInLimitPerMinute`.
 */
export async function signInAs(app: App, fullName: string, pin = '3816'): Promise<SessionCookies> {
  const { db } = app.database;
  await addMember(db, fullName);
  const member = await findMemberByKey(db, nameKey(fullName));
  if (member === undefined) throw new Error(`member "${fullName}" was not created`);
  // The sign-in routes refuse the QA member: it is signed in the self-test's way.
  if (member.is_qa === 1) {
    const token = await startQaSession(db, new SessionStore(db, { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 }), member.id, { pin, pinPepper: TEST_SECRETS.pinPepper }, { ip: '127.0.0.1', userAgent: undefined });
    return { [cookieNames(false).session]: token };
  }
  if (member.pin_hash === null) await setFirstPinHash(db, member.id, await hashPin(pin, TEST_SECRETS.pinPepper));
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ password: TEST_SECRETS.teamPassword, name: fullName, pin }),
  });
  if (login.statusCode !== 200) throw new Error(`signing in "${fullName}" answered ${login.statusCode}: ${login.body}`);
  return Object.fromEntries(login.cookies.map((cookie) => [cookie.name, cookie.value]));
}

/**
 * Issues `fullName` an enrollment link (as the admin would) and opens it like a browser: answers
 * the enrollment cookie GET /enroll/<token> set, and the link itself.
 */
export async function openEnrollmentLink(app: App, fullName: string): Promise<{ cookies: SessionCookies; url: string }> {
  const member = await findMemberByKey(app.database.db, nameKey(fullName));
  if (member === undefined) throw new Error(`no member "${fullName}"`);
  const { url } = await issueEnrollmentLink(app.database.db, member.id, 'http://review.test');
  const opened = await app.inject({ method: 'GET', url: new URL(url).pathname });
  if (opened.statusCode !== 303) throw new Error(`opening the enrollment link answered ${opened.statusCode}: ${opened.body}`);
  return { cookies: Object.fromEntries(opened.cookies.map((cookie) => [cookie.name, cookie.value])), url };
}

/** The same cookies as a Cookie request header, for clients other than inject (http.get, fetch). */
export function cookieHeader(cookies: SessionCookies): string {
  return Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
}

export type ApiMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** An API call as the client makes it: state-changing calls always declare JSON (the CSRF rule), with or without a body. */
export function apiCall(app: App, method: ApiMethod, url: string, cookies: SessionCookies | undefined, body?: unknown) {
  return app.inject({
    method,
    url,
    ...(cookies === undefined ? {} : { cookies }),
    ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' } }),
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}
