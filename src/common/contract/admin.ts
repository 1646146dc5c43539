import { z } from 'zod';
import { AUDIT_EVENTS, AUDIT_OUTCOMES, AUDIT_QA_ROWS, adminRoutes } from '../api/admin.js';
import { idParamsSchema } from './comments.js';
import { memberNameSchema } from './auth.js';
import { messageResponseSchema } from './common.js';
import { roleSchema } from './user.js';

/** The admin password every admin action carries; bounded so nobody can make the server compare megabytes. */
export const adminPasswordSchema = z.string().min(1, 'Admin password is required').max(200, 'Admin password is too long');

export const adminPasswordInputSchema = z.strictObject({ adminPassword: adminPasswordSchema });
export type AdminPasswordInput = z.infer<typeof adminPasswordInputSchema>;

/** A member as the admin sees them: never a PIN, a hash or a token. */
export const adminMemberSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  role: roleSchema,
  isQa: z.boolean(),
  active: z.boolean(),
  pinSet: z.boolean(),
  /** 'pending': a live enrollment link is out; 'expired': the last one ran out unused. */
  enrollment: z.enum(['none', 'pending', 'expired']),
  enrollmentExpiresAt: z.iso.datetime().nullable(),
  lastSignInAt: z.iso.datetime().nullable(),
  /** Set while wrong PINs keep the name locked. */
  lockedUntil: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type AdminMember = z.infer<typeof adminMemberSchema>;

export const addMemberInputSchema = z.strictObject({ adminPassword: adminPasswordSchema, memberName: memberNameSchema });
export type AddMemberInput = z.input<typeof addMemberInputSchema>;

/** Shown once: the link is never stored, only its hash. */
export const enrollmentLinkSchema = z.object({ url: z.string(), expiresAt: z.iso.datetime() });

export const enrollmentLinkResultSchema = z.object({ message: z.string(), memberName: z.string(), enrollmentLink: enrollmentLinkSchema });
export type EnrollmentLinkResult = z.infer<typeof enrollmentLinkResultSchema>;

export const addMemberResultSchema = enrollmentLinkResultSchema.extend({ member: adminMemberSchema });
export type AddMemberResult = z.infer<typeof addMemberResultSchema>;

export const setRoleInputSchema = z.strictObject({ adminPassword: adminPasswordSchema, role: roleSchema });
export type SetRoleInput = z.infer<typeof setRoleInputSchema>;

export const setActiveInputSchema = z.strictObject({ adminPassword: adminPasswordSchema, active: z.boolean() });
export type SetActiveInput = z.infer<typeof setActiveInputSchema>;

export const pinResetRequestSchema = z.object({
  id: z.number().int().positive(),
  memberName: z.string(),
  status: z.enum(['pending', 'resolved']),
  requestedAt: z.iso.datetime(),
  resolvedAt: z.iso.datetime().nullable(),
  resolvedBy: z.string().nullable(),
});
export type PinResetRequest = z.infer<typeof pinResetRequestSchema>;

export const auditQuerySchema = z.strictObject({
  member: memberNameSchema.optional(),
  event: z.enum(AUDIT_EVENTS).optional(),
  qa: z.enum(AUDIT_QA_ROWS).optional(),
  page: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, 'page must be a whole number from 1')
    .transform(Number)
    .optional(),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.number().int().positive(),
  event: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
  actorName: z.string().nullable(),
  ip: z.string().nullable(),
  detail: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
  total: z.number().int().nonnegative(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/** Where a secret came from; its value never leaves the server. */
export const secretSourceSchema = z.enum(['environment', 'generated']);

export const systemStatusSchema = z.object({
  version: z.string(),
  database: z.enum(['sqlite', 'postgres']),
  aiProvider: z.string(),
  adminName: z.string().nullable(),
  qaUserName: z.string(),
  /** The rules the server enforces, as sentences for the page. */
  securityModel: z.array(z.string()),
  secrets: z.array(z.object({ name: z.string(), label: z.string(), source: secretSourceSchema })),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;

export const adminContract = {
  members: { ...adminRoutes.members, response: { 200: z.array(adminMemberSchema) } },
  addMember: { ...adminRoutes.addMember, body: addMemberInputSchema, response: { 201: addMemberResultSchema } },
  enrollmentLink: { ...adminRoutes.enrollmentLink, params: idParamsSchema, body: adminPasswordInputSchema, response: { 200: enrollmentLinkResultSchema } },
  unlock: { ...adminRoutes.unlock, params: idParamsSchema, body: adminPasswordInputSchema, response: { 200: messageResponseSchema } },
  setRole: { ...adminRoutes.setRole, params: idParamsSchema, body: setRoleInputSchema, response: { 200: messageResponseSchema } },
  setActive: { ...adminRoutes.setActive, params: idParamsSchema, body: setActiveInputSchema, response: { 200: messageResponseSchema } },
  initQa: { ...adminRoutes.initQa, body: adminPasswordInputSchema, response: { 200: messageResponseSchema } },
  pinResetRequests: { ...adminRoutes.pinResetRequests, response: { 200: z.array(pinResetRequestSchema) } },
  resetPin: { ...adminRoutes.resetPin, params: idParamsSchema, body: adminPasswordInputSchema, response: { 200: enrollmentLinkResultSchema } },
  resolvePinReset: { ...adminRoutes.resolvePinReset, params: idParamsSchema, body: adminPasswordInputSchema, response: { 200: enrollmentLinkResultSchema } },
  audit: { ...adminRoutes.audit, querystring: auditQuerySchema, response: { 200: auditPageSchema } },
  system: { ...adminRoutes.system, response: { 200: systemStatusSchema } },
} as const;
