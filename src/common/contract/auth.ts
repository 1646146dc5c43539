import { z } from 'zod';
import { NAME_MAX_LENGTH } from '../limits.js';
import { authRoutes } from '../api/auth.js';
import { PIN_PATTERN, guessablePinReason } from '../pin-rules.js';
import { TEXT_RULE_MESSAGES, hasBidiControls, hasForbiddenControls, withoutZeroWidth } from '../text-rules.js';
import { messageResponseSchema } from './common.js';
import { currentUserSchema } from './user.js';

/** Team password field: bounded so nobody can make the server hash megabytes. */
const password = z.string().min(1, 'Password is required').max(200);
/** Zero-width characters are dropped first, so a name of only those is empty; controls and direction overrides are refused. */
export const memberNameSchema = z
  .string()
  .transform(withoutZeroWidth)
  .pipe(
    z
      .string()
      .trim()
      .min(1, 'Name is required')
      .max(NAME_MAX_LENGTH)
      .refine((name) => !hasForbiddenControls(name, { multiline: false }), `Name ${TEXT_RULE_MESSAGES.control}`)
      .refine((name) => !hasBidiControls(name), `Name ${TEXT_RULE_MESSAGES.bidi}`),
  );
const pin = z.string().regex(PIN_PATTERN, 'PIN must be exactly 4 digits');

/** The sign-in payload. An empty PIN asks whether the member still has to create one. */
export const loginRequestSchema = z.strictObject({
  password,
  name: memberNameSchema,
  pin: z.union([z.literal(''), pin]).optional().default(''),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

/** 202 answer of POST /api/login: the member has no PIN yet and must create one. */
export const pinSetupRequiredSchema = z.object({
  pinSetupRequired: z.literal(true),
  name: z.string(),
  message: z.string(),
});
export type PinSetupRequired = z.infer<typeof pinSetupRequiredSchema>;

/** A new PIN must also not be one of the guessable ones, refused with its rule's reason (an existing PIN still signs in). */
const newPin = pin.superRefine((value, context) => {
  const reason = guessablePinReason(value);
  if (reason !== undefined) context.addIssue({ code: 'custom', message: reason });
});
export const setupPinRequestSchema = z.strictObject({ password, name: memberNameSchema, pin: newPin });
export type SetupPinRequest = z.infer<typeof setupPinRequestSchema>;

export const quickLoginRequestSchema = z.strictObject({ name: memberNameSchema, pin });
export type QuickLoginRequest = z.infer<typeof quickLoginRequestSchema>;

export const forgotPinRequestSchema = z.strictObject({ memberName: memberNameSchema });
export type ForgotPinRequest = z.infer<typeof forgotPinRequestSchema>;

export const checkSessionResponseSchema = z.object({
  canQuickLogin: z.boolean(),
  memberName: z.string().nullable(),
});
export type CheckSessionResponse = z.infer<typeof checkSessionResponseSchema>;

/**
 * GET /api/enrollment: what the enrollment cookie set by an enrollment link (`/enroll/<token>`)
 * allows. 'valid' names the member who may create a PIN; 'invalid' means the link was used,
 * expired or replaced; 'none' means this browser opened no link.
 */
export const enrollmentStatusSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('valid'), memberName: z.string() }),
  z.object({ state: z.literal('invalid') }),
  z.object({ state: z.literal('none') }),
]);
export type EnrollmentStatus = z.infer<typeof enrollmentStatusSchema>;

export const teamMemberNamesSchema = z.array(z.string());

/** The admin's full name (the configured one, else the first active admin); null when there is none. */
export const adminContactSchema = z.object({ name: z.string().nullable() });
export type AdminContact = z.infer<typeof adminContactSchema>;

export const authContract = {
  user: { ...authRoutes.user, response: { 200: currentUserSchema } },
  login: { ...authRoutes.login, body: loginRequestSchema, response: { 200: currentUserSchema, 202: pinSetupRequiredSchema } },
  setupPin: { ...authRoutes.setupPin, body: setupPinRequestSchema, response: { 200: currentUserSchema } },
  quickLogin: { ...authRoutes.quickLogin, body: quickLoginRequestSchema, response: { 200: currentUserSchema } },
  logout: { ...authRoutes.logout, response: { 200: messageResponseSchema } },
  clearSession: { ...authRoutes.clearSession, response: { 200: messageResponseSchema } },
  checkSession: { ...authRoutes.checkSession, response: { 200: checkSessionResponseSchema } },
  teamMemberNames: { ...authRoutes.teamMemberNames, response: { 200: teamMemberNamesSchema } },
  forgotPin: { ...authRoutes.forgotPin, body: forgotPinRequestSchema, response: { 200: messageResponseSchema } },
  enrollment: { ...authRoutes.enrollment, response: { 200: enrollmentStatusSchema } },
  adminContact: { ...authRoutes.adminContact, response: { 200: adminContactSchema } },
} as const;
