import type { AUTH_MESSAGES, authContract, TEAM_PASSWORD_HEADER } from '../../../../shared/contract/auth';

/**
 * The auth contract's paths, header and messages as the client uses them. They are written out
 * because the contract module builds zod schemas at import time and a value import would pull zod
 * (~25 KiB gzip) into this chunk (ADR 0005); each literal is typed as the contract's own constant,
 * so the compiler fails the build the day the two differ.
 */
type Contract = typeof authContract;

export const AUTH_PATHS: { [Call in keyof Contract]: Contract[Call]['path'] } = {
  user: '/api/user',
  login: '/api/login',
  setupPin: '/api/setup-pin',
  quickLogin: '/api/quick-login',
  logout: '/api/logout',
  clearSession: '/api/clear-session',
  checkSession: '/api/check-session',
  teamMemberNames: '/api/team-members/names',
  forgotPin: '/api/forgot-pin',
  enrollment: '/api/enrollment',
};

export const TEAM_PASSWORD_PROOF_HEADER: typeof TEAM_PASSWORD_HEADER = 'x-team-password';

/** The two server messages that switch the screen to PIN setup (spec section 5). */
export const PIN_SETUP_MESSAGES: Pick<typeof AUTH_MESSAGES, 'pinRequired' | 'pinNotSet'> = {
  pinRequired: 'PIN is required',
  pinNotSet: 'PIN not set. Please use full login to set up your PIN.',
};
