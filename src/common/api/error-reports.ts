import type { ErrorLogEntry, ErrorReport, ErrorReportAccepted } from '../contract/error-reports.js';
import { defineRoute } from './route.js';

export const ERROR_TYPES = ['javascript_error', 'unhandled_promise_rejection', 'user_action_error', 'api_error', 'component_error'] as const;
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;

/** How many entries the admin's two lists show. */
export const UNRESOLVED_ERRORS_SHOWN = 5;
export const ALL_ERRORS_SHOWN = 20;

export const errorReportRoutes = {
  create: defineRoute<{ body: ErrorReport; response: ErrorReportAccepted }>()('POST', '/api/errors/log'),
  /** The admin's view: the most recently seen entries first. */
  list: defineRoute<{ response: ErrorLogEntry[] }>()('GET', '/api/errors'),
  unresolved: defineRoute<{ response: ErrorLogEntry[] }>()('GET', '/api/errors/unresolved'),
  resolve: defineRoute<{ response: ErrorLogEntry }>()('PATCH', '/api/errors/:id/resolve'),
} as const;
