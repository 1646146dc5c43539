import { z } from 'zod';
import { ERROR_REPORT_LIMITS } from '../limits.js';

export const ERROR_TYPES = [
  'javascript_error',
  'unhandled_promise_rejection',
  'user_action_error',
  'api_error',
  'component_error',
] as const;
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;

export const errorTypeSchema = z.enum(ERROR_TYPES);
export const severitySchema = z.enum(SEVERITIES);
export type ErrorType = z.infer<typeof errorTypeSchema>;
export type Severity = z.infer<typeof severitySchema>;

/** Spec section 3 'Error report payload'. Unknown fields are refused, every field is bounded. */
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

export const reportErrorContract = {
  method: 'POST',
  path: '/api/errors/log',
  body: errorReportSchema,
  response: { 201: errorReportAcceptedSchema },
} as const;
