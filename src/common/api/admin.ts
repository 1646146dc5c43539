import type {
  AddMemberInput,
  AddMemberResult,
  AdminMember,
  AdminPasswordInput,
  AuditPage,
  AuditQuery,
  EnrollmentLinkResult,
  PinResetRequest,
  SetActiveInput,
  SetRoleInput,
  SystemStatus,
} from '../contract/admin.js';
import type { MessageResponse } from '../contract/common.js';
import { defineRoute } from './route.js';

/** How often the PIN reset list refreshes while the tab is open (the live stream also refreshes it). */
export const PIN_RESET_POLL_MS = 5_000;
/** Entries per page of the audit trail. */
export const AUDIT_PAGE_SIZE = 25;

/** The audit trail's event types, as the filter offers them. */
export const AUDIT_EVENTS = [
  'sign-in',
  'quick-login',
  'pin-setup',
  'logout',
  'clear-session',
  'forgot-pin',
  'lockout',
  'enrollment',
  'admin-action',
  'admin-password',
  'comment-resolved',
  'comment-reopened',
  'action-completed',
] as const;
export type AuditEventName = (typeof AUDIT_EVENTS)[number];

export const AUDIT_OUTCOMES = ['success', 'failure', 'locked', 'info'] as const;

/** Whether the trail shows what the self-test's own requests wrote ('show' unless asked). */
export const AUDIT_QA_ROWS = ['show', 'hide'] as const;

/**
 * The admin's calls. Every one is admin-only on the server; every state change also carries the
 * admin password, which the server checks (throttled and audited).
 */
export const adminRoutes = {
  members: defineRoute<{ response: AdminMember[] }>()('GET', '/api/admin/members'),
  /** 201 with the new member and their one-time enrollment link; 409 when the name is taken. */
  addMember: defineRoute<{ body: AddMemberInput; response: AddMemberResult }>()('POST', '/api/admin/add-member'),
  enrollmentLink: defineRoute<{ body: AdminPasswordInput; response: EnrollmentLinkResult }>()('POST', '/api/admin/members/:id/enrollment-link'),
  unlock: defineRoute<{ body: AdminPasswordInput; response: MessageResponse }>()('POST', '/api/admin/members/:id/unlock'),
  setRole: defineRoute<{ body: SetRoleInput; response: MessageResponse }>()('POST', '/api/admin/members/:id/role'),
  /** Deactivating ends the member's sessions, devices and live streams at once. */
  setActive: defineRoute<{ body: SetActiveInput; response: MessageResponse }>()('POST', '/api/admin/members/:id/active'),
  initQa: defineRoute<{ body: AdminPasswordInput; response: MessageResponse }>()('POST', '/api/admin/init-qa'),
  pinResetRequests: defineRoute<{ response: PinResetRequest[] }>()('GET', '/api/admin/pin-reset-requests'),
  /**
   * The same reset without a request: the PIN of every active member can be reset, the member's pending requests
   * resolved with it.
   */
  resetPin: defineRoute<{ body: AdminPasswordInput; response: EnrollmentLinkResult }>()('POST', '/api/admin/members/:id/reset-pin'),
  /** Clears the PIN, ends sessions and devices, and answers the fresh enrollment link to hand over. */
  resolvePinReset: defineRoute<{ body: AdminPasswordInput; response: EnrollmentLinkResult }>()('POST', '/api/admin/resolve-pin-reset/:id'),
  audit: defineRoute<{ query: AuditQuery; response: AuditPage }>()('GET', '/api/admin/audit'),
  system: defineRoute<{ response: SystemStatus }>()('GET', '/api/admin/system'),
} as const;
