import { Activity, ArrowLeft, Grid3x3, LayoutDashboard, Users, type LucideIcon } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { lazy } from 'react';
import { Link } from 'wouter';
import { ROUTES } from '../../../common/routes';
import { PageHeader } from '../../components/layout/page-header';
import { buttonClasses } from '../../components/ui/button';
import { SectionTabList, useSectionTab } from '../../components/ui/section-tabs';
import { ANALYTICS_TABS, type AnalyticsTabId } from './analytics-tabs';
import { OverviewTab } from './components/overview-tab';
import { LazyTab } from '../../components/ui/lazy-tab';

// The first tab comes with the page; the others are fetched when opened, so the page's first
// JavaScript stays small (docs/decisions/0005-client-bundle-budget.md).
const UsersTab = lazy(() => import('./components/users-tab').then((module) => ({ default: module.UsersTab })));
const ActivityTab = lazy(() => import('./components/activity-tab').then((module) => ({ default: module.ActivityTab })));
const CoverageTab = lazy(() => import('./components/coverage-tab').then((module) => ({ default: module.CoverageTab })));

const TAB_ICONS: Record<AnalyticsTabId, LucideIcon> = {
  overview: LayoutDashboard,
  users: Users,
  activity: Activity,
  coverage: Grid3x3,
};

/**
 * Team Analytics: every member sees how the team takes part in the review. Only the shown tab is
 * mounted, so a tab's requests (and the Activity tab's polling) run while it is open.
 */
export default function AnalyticsPage() {
  const [tab, selectTab] = useSectionTab(ANALYTICS_TABS);
  return (
    <div className="min-h-screen">
      <PageHeader title="Team Analytics" subtitle="How the team takes part in the review" />
      <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8">
        <Link href={ROUTES.home} className={buttonClasses('outline', 'sm')}>
          <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back to Main
        </Link>
        <Tabs.Root
          className="mt-6"
          value={tab}
          onValueChange={selectTab}
        >
          {/* Icons from 640 px: on a phone the four labels alone fit the row. */}
          <SectionTabList label="Analytics sections" tabs={ANALYTICS_TABS} icons={TAB_ICONS} iconsFromSm />
          <div className="mt-6">
            <Tabs.Content value="overview">
              <OverviewTab />
            </Tabs.Content>
            <Tabs.Content value="users">
              <LazyTab>
                <UsersTab />
              </LazyTab>
            </Tabs.Content>
            <Tabs.Content value="activity">
              <LazyTab>
                <ActivityTab />
              </LazyTab>
            </Tabs.Content>
            <Tabs.Content value="coverage">
              <LazyTab>
                <CoverageTab />
              </LazyTab>
            </Tabs.Content>
          </div>
        </Tabs.Root>
      </main>
    </div>
  );
}
