import { useSearchParams } from 'wouter';

/** The page's tabs, in order; the id is what `?tab=` holds, so a tab can be linked and survives a reload. */
export const ANALYTICS_TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'users', label: 'Users' },
  { id: 'activity', label: 'Activity' },
  { id: 'coverage', label: 'Coverage' },
] as const;

export type AnalyticsTabId = (typeof ANALYTICS_TABS)[number]['id'];

/** The tab a `?tab=` value names; anything else (missing, misspelt, stale link) opens the overview. */
export function parseAnalyticsTab(value: string | null): AnalyticsTabId {
  return ANALYTICS_TABS.find((tab) => tab.id === value)?.id ?? 'overview';
}

/** The selected tab, kept in the URL's query; switching replaces the history entry, so Back leaves the page. */
export function useAnalyticsTab(): [AnalyticsTabId, (tab: AnalyticsTabId) => void] {
  const [params, setParams] = useSearchParams();
  const selected = parseAnalyticsTab(params.get('tab'));
  const select = (tab: AnalyticsTabId) => {
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
