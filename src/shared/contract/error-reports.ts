import { z } from 'zod';
import { ERROR_TYPES, SEVERITIES, errorReportRoutes } from '../api/error-reports.js';
import { ERROR_REPORT_LIMITS } from '../limits.js';

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

export const reportErrorContract = { ...errorReportRoutes.create, body: errorReportSchema, response: { 201: errorReportAcceptedSchema } } as const;
