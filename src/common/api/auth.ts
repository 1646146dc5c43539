import type { AdminContact, CheckSessionResponse, EnrollmentStatus, ForgotPinRequest, LoginRequest, PinSetupRequired, QuickLoginRequest, SetupPinRequest } from '../contract/auth.js';
import type { MessageResponse } from '../contract/common.js';
import type { CurrentUser } from '../contract/user.js';
import { defineRoute } from './route.js';

/**
 * Names are disclosed to a signed-in member, or to a sign-in screen that proves the team password
 * in this header (never in the URL, where logs and history keep it).
 */
export const TEAM_PASSWORD_HEADER = 'x-team-password';

/** Enrollment links are `<public URL>/enroll/<token>`: a page address, not an API call. */
export const ENROLLMENT_LINK_PREFIX = '/enroll/';

/** The messages the sign-in calls answer with, shown to people as they are. */
export const AUTH_MESSAGES = {
  invalidCredentials: 'Invalid name, password or PIN',
  pinRequired: 'PIN is required',
  pinNotSet: 'PIN not set. Please use full login to set up your PIN.',
  pinAlreadySet: 'A PIN is already set for this member. Sign in with it, or use Forgot PIN.',
  forgotPinAccepted: 'Your request is with the admin, who will send you an enrollment link to create your PIN. (A name that is not on the team gets no link.)',
  loggedOut: 'Logged out',
  enrollmentRequired: 'Creating a PIN needs the enrollment link from the admin. Ask the admin to send you a new one, then open it in this browser.',
} as const;

export const authRoutes = {
  user: defineRoute<{ response: CurrentUser }>()('GET', '/api/user'),
  /** 200 is the signed-in member; 202 means the member has no PIN yet and must create one. */
  login: defineRoute<{ body: LoginRequest; response: CurrentUser | PinSetupRequired }>()('POST', '/api/login'),
  setupPin: defineRoute<{ body: SetupPinRequest; response: CurrentUser }>()('POST', '/api/setup-pin'),
  quickLogin: defineRoute<{ body: QuickLoginRequest; response: CurrentUser }>()('POST', '/api/quick-login'),
  logout: defineRoute<{ response: MessageResponse }>()('POST', '/api/logout'),
  clearSession: defineRoute<{ response: MessageResponse }>()('POST', '/api/clear-session'),
  checkSession: defineRoute<{ response: CheckSessionResponse }>()('GET', '/api/check-session'),
  teamMemberNames: defineRoute<{ response: string[] }>()('GET', '/api/team-members/names'),
  forgotPin: defineRoute<{ body: ForgotPinRequest; response: MessageResponse }>()('POST', '/api/forgot-pin'),
  enrollment: defineRoute<{ response: EnrollmentStatus }>()('GET', '/api/enrollment'),
  /** Whom a member asks for admin help: the 'Access Denied' screen names them. */
  adminContact: defineRoute<{ response: AdminContact }>()('GET', '/api/team-members/admin'),
} as const;
