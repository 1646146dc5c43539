import { useSearchParams } from 'wouter';

/** The panel's tabs, in order; the id is what `?tab=` holds, so a tab can be linked and survives a reload. */
export const ADMIN_TABS = [
  { id: 'team', label: 'Team Management' },
  { id: 'pin-resets', label: 'PIN Resets' },
  { id: 'qa-testing', label: 'QA Testing' },
  { id: 'error-logs', label: 'Error Logs' },
  { id: 'ai-prompts', label: 'AI Prompts' },
  { id: 'system', label: 'System' },
  { id: 'audit-trail', label: 'Audit Trail' },
] as const;

export type AdminTabId = (typeof ADMIN_TABS)[number]['id'];

const DEFAULT_TAB: AdminTabId = 'team';

/** The tab a `?tab=` value names; anything else (missing, misspelt, stale link) opens the first tab. */
export function parseAdminTab(value: string | null): AdminTabId {
  return ADMIN_TABS.find((tab) => tab.id === value)?.id ?? DEFAULT_TAB;
}

/**
 * The selected tab, kept in the URL's query. Switching replaces the history entry, so Back leaves
 * the panel instead of stepping through every tab that was looked at.
 */
export function useAdminTab(): [AdminTabId, (tab: AdminTabId) => void] {
  const [params, setParams] = useSearchParams();
  const selected = parseAdminTab(params.get('tab'));
  const select = (tab: AdminTabId) => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('tab', tab);
        return next;
      },
      { replace: true },
    );
  };
  return [selected, select];
}
