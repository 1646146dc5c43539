import type { AuditEventName } from '../../../common/api/admin';
import type { ErrorType } from '../../../common/contract/error-reports';

/** The audit trail's event types as the panel words them; the keys stay the API's. */
const AUDIT_EVENT_LABELS: Record<AuditEventName, string> = {
  'sign-in': 'Sign-in',
  'quick-login': 'Quick sign-in',
  'pin-setup': 'PIN setup',
  logout: 'Sign-out',
  'clear-session': 'Session cleared',
  'forgot-pin': 'Forgot PIN',
  lockout: 'Lockout',
  enrollment: 'Enrollment link',
  'admin-action': 'Admin action',
  'admin-password': 'Admin password check',
  'comment-resolved': 'Comment resolved',
  'comment-reopened': 'Comment reopened',
  'action-completed': 'Action completed',
};

const ERROR_TYPE_LABELS: Record<ErrorType, string> = {
  javascript_error: 'JavaScript error',
  unhandled_promise_rejection: 'Unhandled promise rejection',
  user_action_error: 'Failed user action',
  api_error: 'API error',
  component_error: 'Component error',
};

/** A key the labels do not know yet (an older row, a newer server) still reads as words: 'some_key' → 'Some key'. */
function wordsOf(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words === '' ? key : `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

function labelOf(labels: Readonly<Record<string, string>>, key: string): string {
  return Object.entries(labels).find(([name]) => name === key)?.[1] ?? wordsOf(key);
}

export function auditEventLabel(event: string): string {
  return labelOf(AUDIT_EVENT_LABELS, event);
}

export function errorTypeLabel(errorType: string): string {
  return labelOf(ERROR_TYPE_LABELS, errorType);
}
