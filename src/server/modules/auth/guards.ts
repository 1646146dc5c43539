import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MemberRow } from '../../db/schema.js';
import { forbidden, unauthorized } from '../../errors.js';
import type { App } from '../../http/types.js';
import type { SessionStore } from './sessions.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';

/** Who may call a route. Every /api route is 'member' unless it says otherwise (deny by default). */
export type RouteAccess = 'public' | 'member' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** The signed-in member, from the session cookie; null when signed out. */
    member: MemberRow | null;
  }
}

export interface CookieNames {
  session: string;
  device: string;
  /** The enrollment link's token, between opening the link and creating the PIN. */
  enrollment: string;
  secure: boolean;
}

/** Behind HTTPS the cookies are Secure and `__Host-` prefixed (bound to this host, path /). */
export function cookieNamesFor(request: FastifyRequest): CookieNames {
  return cookieNames(request.protocol === 'https');
}

/** The names over HTTPS or plain HTTP (in-process requests, such as the self-test's, are plain). */
export function cookieNames(secure: boolean): CookieNames {
  return {
    session: secure ? '__Host-biggy_session' : 'biggy_session',
    device: secure ? '__Host-biggy_device' : 'biggy_device',
    enrollment: secure ? '__Host-biggy_enrollment' : 'biggy_enrollment',
    secure,
  };
}

export function requireMember(request: FastifyRequest): MemberRow {
  if (request.member === null) throw unauthorized('Sign in to continue');
  return request.member;
}

/** The role is a server fact: nothing in the request body can grant it. */
export function requireAdmin(request: FastifyRequest): MemberRow {
  const member = requireMember(request);
  if (member.role !== 'admin') throw forbidden('This action is restricted to the admin', ERROR_CODES.adminOnly);
  return member;
}

/** Whom an answer presented per member is for: the member and their role, since a new role changes what they may do. */
export function viewerKey(request: FastifyRequest): string {
  const member = requireMember(request);
  return `${member.id}:${member.role}`;
}

export function readSessionToken(request: FastifyRequest): string | undefined {
  const token = request.cookies[cookieNamesFor(request).session];
  return token === undefined || token === '' ? undefined : token;
}

/**
 * Which session a request's member was read from (the member object is made anew for each request):
 * what a caller that holds only the member, such as the admin-password throttle, needs to tell one
 * session of an admin from another.
 */
const sessionOfMember = new WeakMap<MemberRow, string>();

/** The hash of the session token `member` was signed in with, when it came from the session guard. */
export function sessionKeyOf(member: MemberRow): string | undefined {
  return sessionOfMember.get(member);
}

export function registerAuthGuards(app: App, sessions: SessionStore) {
  app.decorateRequest('member', null);
  app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
    // The matched route decides, not the raw URL: '/%61pi/x' is routed to '/api/x' and must be guarded like it.
    const path = request.routeOptions.url ?? request.url;
    if (!path.startsWith('/api/') || path === '/api/health') return;
    const token = readSessionToken(request);
    if (token !== undefined) {
      const session = await sessions.findSession(token);
      request.member = session?.member ?? null;
      if (session !== undefined) sessionOfMember.set(session.member, session.tokenHash);
    }
    // Unknown API paths fall through to the 404 handler.
    if (request.is404) return;
    const access = request.routeOptions.config.access ?? 'member';
    if (access === 'member') requireMember(request);
    else if (access === 'admin') requireAdmin(request);
  });
}

/**
 * Who asks for a screen's document (not an API call): the session member's role, or signed out.
 * Only the document's hints depend on it, so a session that cannot be read (the database is
 * down) counts as signed out: the page's own calls then say what is wrong.
 */
export function documentViewer(sessions: SessionStore): (request: FastifyRequest) => Promise<'signed out' | MemberRow['role']> {
  return async (request) => {
    const token = readSessionToken(request);
    if (token === undefined) return 'signed out';
    try {
      const session = await sessions.findSession(token, Date.now(), { touch: false });
      return session?.member.role ?? 'signed out';
    } catch {
      return 'signed out';
    }
  };
}
