import type { SectionTab } from '../../components/ui/section-tabs';

/** The page's tabs, in order; the id is what `?tab=` holds. */
export const ANALYTICS_TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'users', label: 'Users' },
  { id: 'activity', label: 'Activity' },
  { id: 'coverage', label: 'Coverage' },
] as const satisfies readonly [SectionTab<string>, ...SectionTab<string>[]];

export type AnalyticsTabId = (typeof ANALYTICS_TABS)[number]['id'];
