import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { authContract } from '../../../common/contract/auth.js';
import { AUTH_MESSAGES, ENROLLMENT_LINK_PREFIX, TEAM_PASSWORD_HEADER } from '../../../common/api/auth.js';
import { messageResponseSchema } from '../../../common/contract/common.js';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { Charge, RateLimiter, RateLimitRule } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';
import { presentCurrentUser } from '../members/service.js';
import { findAdminName } from '../members/repo.js';
import { nameKey } from '../../../common/names.js';
import { cookieNamesFor, readSessionToken, requireMember } from './guards.js';
import { AuthService, type RequestContext, type SignedIn } from './service.js';
import { DEVICE_TOKEN_LIFETIME_MS, type SessionStore } from './sessions.js';
import { ENROLLMENT_LIFETIME_MS, isEnrollmentTokenShaped } from '../enrollment/service.js';

/**
 * At most 10 failed sign-in attempts a minute per IP (configurable), shared by every sign-in route.
 * Each attempt is charged up front (so concurrent guesses are held to the limit too) and refunded
 * once it succeeds: a team behind one office address can all sign in together.
 */
function signInRule(maxPerMinute: number): RateLimitRule {
  return { name: 'sign-in', max: maxPerMinute, windowMs: 60_000, message: 'Too many sign-in attempts from this address' };
}

function contextOf(request: FastifyRequest): RequestContext {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

function readCookie(request: FastifyRequest, which: 'device' | 'enrollment'): string | undefined {
  const token = request.cookies[cookieNamesFor(request)[which]];
  return token === undefined || token === '' ? undefined : token;
}

const readDeviceToken = (request: FastifyRequest) => readCookie(request, 'device');
const readEnrollmentToken = (request: FastifyRequest) => readCookie(request, 'enrollment');

export function registerAuthRoutes(
  app: App,
  deps: { db: Kysely<Database>; sessions: SessionStore; limiter: RateLimiter; config: AppConfig },
) {
  const auth = new AuthService(deps.db, deps.sessions, deps.config.secrets);
  const signInRuleOfConfig = signInRule(deps.config.signInLimitPerMinute);
  // The charge of each request still in flight, for its refund when it turns out a success.
  const charges = new WeakMap<FastifyRequest, Charge>();
  const chargeSignIn = async (request: FastifyRequest) => {
    charges.set(request, await deps.limiter.enforce(signInRuleOfConfig, request));
  };
  const refundSignIn = async (request: FastifyRequest) => {
    const charge = charges.get(request);
    if (charge === undefined) return;
    charges.delete(request);
    await deps.limiter.refundCharge(charge);
  };

  const setCookies = (request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn) => {
    const names = cookieNamesFor(request);
    const base = { httpOnly: true, sameSite: 'lax', path: '/', secure: names.secure } as const;
    reply.setCookie(names.session, signedIn.sessionToken, { ...base, maxAge: Math.floor(deps.config.session.absoluteMs / 1000) });
    reply.setCookie(names.device, signedIn.deviceToken, { ...base, maxAge: Math.floor(DEVICE_TOKEN_LIFETIME_MS / 1000) });
  };
  const clearCookie = (request: FastifyRequest, reply: FastifyReply, which: 'session' | 'device' | 'enrollment') => {
    const names = cookieNamesFor(request);
    reply.clearCookie(names[which], { path: '/', httpOnly: true, sameSite: which === 'enrollment' ? 'strict' : 'lax', secure: names.secure });
  };
  /** A sign-in replaces whatever session the browser had: no fixation, no orphaned sessions. */
  const replaceSession = async (request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn) => {
    const previous = readSessionToken(request);
    if (previous !== undefined) await deps.sessions.endSession(previous);
    setCookies(request, reply, signedIn);
  };
  /** Ends a sign-in call: the new session replaces the old one, and the answer is the member. */
  const startSession = async (request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn) => {
    await replaceSession(request, reply, signedIn);
    await refundSignIn(request);
    return presentCurrentUser(signedIn.member);
  };
  /** What every sign-in call shares: public, under the per-IP sign-in limit, its body and answers validated. */
  const signInRoute = <Body, Response>(contract: { body: Body; response: Response }) => ({
    config: { access: 'public' as const },
    onRequest: chargeSignIn,
    schema: { body: contract.body, response: contract.response },
  });

  app.get(authContract.user.path, { schema: { response: authContract.user.response } }, (request, reply) => {
    void reply.send(presentCurrentUser(requireMember(request)));
  });

  app.post(authContract.login.path, signInRoute(authContract.login), async (request, reply) => {
    const outcome = await auth.login(request.body, readEnrollmentToken(request), readDeviceToken(request), contextOf(request));
    if (outcome.kind === 'pin-setup-required') {
      // The password and the enrollment link were right: a success so far, not a guess.
      await refundSignIn(request);
      return reply.status(202).send({ pinSetupRequired: true as const, name: outcome.name, message: 'Create your 4-digit PIN to finish signing in' });
    }
    return reply.status(200).send(await startSession(request, reply, outcome));
  });

  app.post(authContract.setupPin.path, signInRoute(authContract.setupPin), async (request, reply) => {
    const user = await startSession(request, reply, await auth.setupPin(request.body, readEnrollmentToken(request), contextOf(request)));
    clearCookie(request, reply, 'enrollment');
    return user;
  });

  app.post(authContract.quickLogin.path, signInRoute(authContract.quickLogin), async (request, reply) =>
    startSession(request, reply, await auth.quickLogin(request.body, readDeviceToken(request), contextOf(request))),
  );

  app.post(
    authContract.logout.path,
    { config: { access: 'public' }, schema: { response: { 200: messageResponseSchema } } },
    async (request, reply) => {
      await auth.logout(readSessionToken(request), request.member, contextOf(request));
      clearCookie(request, reply, 'session');
      return { message: AUTH_MESSAGES.loggedOut };
    },
  );

  app.post(
    authContract.clearSession.path,
    { config: { access: 'public' }, schema: { response: { 200: messageResponseSchema } } },
    async (request, reply) => {
      await auth.clearSession(readSessionToken(request), readDeviceToken(request), request.member, contextOf(request));
      clearCookie(request, reply, 'session');
      clearCookie(request, reply, 'device');
      return { message: 'Session cleared' };
    },
  );

  app.get(
    authContract.checkSession.path,
    { config: { access: 'public' }, schema: { response: authContract.checkSession.response } },
    async (request) => auth.checkSession(readDeviceToken(request)),
  );

  app.get(authContract.adminContact.path, { schema: { response: authContract.adminContact.response } }, async () => ({
    name: await findAdminName(deps.db, deps.config.adminName === undefined ? undefined : nameKey(deps.config.adminName)),
  }));

  app.get(
    authContract.teamMemberNames.path,
    { config: { access: 'public' }, schema: { response: authContract.teamMemberNames.response } },
    async (request) => {
      const proof = request.headers[TEAM_PASSWORD_HEADER];
      const proofText = typeof proof === 'string' ? proof : undefined;
      // A password check is a sign-in attempt: it shares their per-IP budget.
      if (request.member === null) await chargeSignIn(request);
      const names = await auth.teamMemberNames(request.member, proofText);
      await refundSignIn(request);
      return names;
    },
  );

  /**
   * An enrollment link: the token moves from the address into an HttpOnly, SameSite=Strict cookie
   * (out of the address bar and history) and the browser lands on the sign-in screen, which asks
   * GET /api/enrollment whom it may create a PIN for. The token is checked there, not here, and so
   * is the sign-in limit: an address over it lands in the app, which shows when to retry, instead
   * of on a bare 429.
   */
  app.get(
    `${ENROLLMENT_LINK_PREFIX}:token`,
    { config: { access: 'public' }, schema: { params: z.strictObject({ token: z.string().max(200) }) } },
    async (request, reply) => {
      const { token } = request.params;
      const names = cookieNamesFor(request);
      if (isEnrollmentTokenShaped(token)) {
        reply.setCookie(names.enrollment, token, {
          httpOnly: true,
          sameSite: 'strict',
          path: '/',
          secure: names.secure,
          maxAge: Math.floor(ENROLLMENT_LIFETIME_MS / 1000),
        });
      } else {
        clearCookie(request, reply, 'enrollment');
      }
      // The link must not be cached or passed on as a referrer (the security headers say no-referrer).
      return reply.header('cache-control', 'no-store').redirect('/', 303);
    },
  );

  app.get(
    authContract.enrollment.path,
    { config: { access: 'public' }, schema: { response: authContract.enrollment.response } },
    async (request, reply) => {
      const token = readEnrollmentToken(request);
      // Checking a token is a guess at one: it shares the sign-in budget of the address.
      if (token !== undefined) await chargeSignIn(request);
      const status = await auth.enrollmentStatus(token);
      if (status.state === 'invalid') clearCookie(request, reply, 'enrollment');
      else await refundSignIn(request);
      return status;
    },
  );

  app.post(
    authContract.forgotPin.path,
    { config: { access: 'public' }, onRequest: chargeSignIn, schema: { body: authContract.forgotPin.body, response: { 200: messageResponseSchema } } },
    async (request) => {
      await auth.forgotPin(request.body.memberName, contextOf(request));
      // Sent whether or not the name exists (the answer must not tell); the admin's list simply refetches.
      await app.events.publish({ type: 'pin-resets.changed' });
      return { message: AUTH_MESSAGES.forgotPinAccepted };
    },
  );
}
