import type { SectionTab } from '../../components/ui/section-tabs';

/** The panel's tabs, in order; the id is what `?tab=` holds. */
export const ADMIN_TABS = [
  { id: 'team', label: 'Team Management' },
  { id: 'pin-resets', label: 'PIN Resets' },
  { id: 'qa-testing', label: 'QA Testing' },
  { id: 'error-logs', label: 'Error Logs' },
  { id: 'ai-prompts', label: 'AI Prompts' },
  { id: 'system', label: 'System' },
  { id: 'audit-trail', label: 'Audit Trail' },
] as const satisfies readonly [SectionTab<string>, ...SectionTab<string>[]];

export type AdminTabId = (typeof ADMIN_TABS)[number]['id'];
