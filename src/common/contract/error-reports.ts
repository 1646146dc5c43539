import { z } from 'zod';
import { ERROR_TYPES, SEVERITIES, errorReportRoutes } from '../api/error-reports.js';
import { ERROR_REPORT_LIMITS } from '../limits.js';
import { idParamsSchema } from './comments.js';

export const errorTypeSchema = z.enum(ERROR_TYPES);
export const severitySchema = z.enum(SEVERITIES);
export type ErrorType = z.infer<typeof errorTypeSchema>;
export type Severity = z.infer<typeof severitySchema>;

/** An error report from the client. Unknown fields are refused, every field is bounded. */
export const errorReportSchema = z.strictObject({
  source: z.literal('frontend'),
  errorType: errorTypeSchema,
  message: z.string().trim().min(1, 'message must not be empty').max(ERROR_REPORT_LIMITS.message),
  stack: z.string().max(ERROR_REPORT_LIMITS.stack).optional(),
  userAgent: z.string().max(ERROR_REPORT_LIMITS.userAgent).optional(),
  url: z.string().max(ERROR_REPORT_LIMITS.url).optional(),
  severity: severitySchema,
});
export type ErrorReport = z.infer<typeof errorReportSchema>;

export const errorReportAcceptedSchema = z.object({ id: z.number().int().positive() });
export type ErrorReportAccepted = z.infer<typeof errorReportAcceptedSchema>;

/** A stored error as the admin sees it: identical reports are one entry with a count. */
export const errorLogEntrySchema = z.object({
  id: z.number().int().positive(),
  errorType: z.string(),
  message: z.string(),
  stack: z.string().nullable(),
  severity: z.string(),
  source: z.string(),
  url: z.string().nullable(),
  memberName: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  occurrences: z.number().int().positive(),
  resolved: z.boolean(),
  resolvedAt: z.iso.datetime().nullable(),
  resolvedBy: z.string().nullable(),
});
export type ErrorLogEntry = z.infer<typeof errorLogEntrySchema>;

export const reportErrorContract = { ...errorReportRoutes.create, body: errorReportSchema, response: { 201: errorReportAcceptedSchema } } as const;

export const errorLogContract = {
  list: { ...errorReportRoutes.list, response: { 200: z.array(errorLogEntrySchema) } },
  unresolved: { ...errorReportRoutes.unresolved, response: { 200: z.array(errorLogEntrySchema) } },
  resolve: { ...errorReportRoutes.resolve, params: idParamsSchema, response: { 200: errorLogEntrySchema } },
} as const;
