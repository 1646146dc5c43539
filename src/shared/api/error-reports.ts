import type { ErrorReport, ErrorReportAccepted } from '../contract/error-reports.js';
import { defineRoute } from './route.js';

export const ERROR_TYPES = ['javascript_error', 'unhandled_promise_rejection', 'user_action_error', 'api_error', 'component_error'] as const;
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;

export const errorReportRoutes = {
  create: defineRoute<{ body: ErrorReport; response: ErrorReportAccepted }>()('POST', '/api/errors/log'),
} as const;
