import { Bot, Bug, FlaskConical, KeyRound, ScrollText, Server, ShieldAlert, Users, type LucideIcon } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { lazy, useState } from 'react';
import type { EnrollmentLinkResult } from '../../../common/contract/admin';
import { PageHeader } from '../../components/layout/page-header';
import { Card } from '../../components/ui/card';
import { LazyTab } from '../../components/ui/lazy-tab';
import { Skeleton } from '../../components/ui/skeleton';
import { canAdminister, useCurrentUser } from '../../lib/auth';
import { useLiveQueryUpdates } from '../../lib/live-events';
import { SectionTabList, useSectionTab } from '../../components/ui/section-tabs';
import { ADMIN_TABS, type AdminTabId } from './admin-tabs';
import { AdminUnlockBar, AdminUnlockProvider } from './admin-unlock';
import { useAdminContact } from './api/admin-contact';
import { EnrollmentLinkPanel } from './components/enrollment-link-panel';
import { TeamTab } from './components/team-tab';
import { EMPTY_PROMPT_DRAFT, type PromptDraft } from './prompt-draft';

// The panel opens on Team; each other tab's code comes when it is first shown (or asked for by a
// link), so a phone's first load carries the team table alone.
const PinResetsTab = lazy(() => import('./components/pin-resets-tab').then((module) => ({ default: module.PinResetsTab })));
const QaTab = lazy(() => import('./components/qa-tab').then((module) => ({ default: module.QaTab })));
const ErrorLogsTab = lazy(() => import('./components/error-logs-tab').then((module) => ({ default: module.ErrorLogsTab })));
const PromptsTab = lazy(() => import('./components/prompts-tab').then((module) => ({ default: module.PromptsTab })));
const SystemTab = lazy(() => import('./components/system-tab').then((module) => ({ default: module.SystemTab })));
const AuditTab = lazy(() => import('./components/audit-tab').then((module) => ({ default: module.AuditTab })));

const TAB_ICONS: Record<AdminTabId, LucideIcon> = {
  team: Users,
  'pin-resets': KeyRound,
  'qa-testing': FlaskConical,
  'error-logs': Bug,
  'ai-prompts': Bot,
  system: Server,
  'audit-trail': ScrollText,
};

/**
 * The admin panel. The server decides who is admin and refuses every admin call to anyone else;
 * this page only avoids making those calls for a member, and shows them why there is nothing here.
 */
export default function AdminPage() {
  // Members, PIN resets, error logs, the self-test's progress and prompts change under the admin's eyes.
  useLiveQueryUpdates();
  const { user, isLoading } = useCurrentUser();
  return (
    <div className="min-h-screen">
      <PageHeader title="Admin Panel" subtitle="Manage team members, QA testing, and system monitoring" />
      <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8">
        {isLoading ? <PanelSkeleton /> : canAdminister(user) ? <AdminTabs /> : <AccessDenied />}
      </main>
    </div>
  );
}

/** Names the admin when the server says who that is; otherwise (none, or the question failed) the role. */
function AccessDenied() {
  const contact = useAdminContact();
  const adminName = contact.data?.name ?? null;
  return (
    <Card className="mx-auto max-w-xl px-6 py-12 text-center">
      <ShieldAlert className="mx-auto h-10 w-10 text-red-600" aria-hidden="true" />
      <h2 className="mt-4 text-xl font-semibold text-slate-900">Access Denied</h2>
      {contact.isPending ? (
        <Skeleton className="mx-auto mt-3 h-5 w-72 max-w-full" />
      ) : (
        <p className="mt-2 text-slate-600">Admin access is restricted to {adminName ?? 'the admin'} only.</p>
      )}
    </Card>
  );
}

function AdminTabs() {
  const [tab, selectTab] = useSectionTab(ADMIN_TABS);
  // The last enrollment link issued, shown until closed: the server keeps only its hash.
  const [issuedLink, setIssuedLink] = useState<EnrollmentLinkResult | null>(null);
  // Only the shown tab is mounted; a prompt being written outlives a visit to another tab.
  const [promptDraft, setPromptDraft] = useState<PromptDraft>(EMPTY_PROMPT_DRAFT);
  return (
    // The admin password is asked once for every tab's actions, and is gone with the page.
    <AdminUnlockProvider>
      <Tabs.Root value={tab} onValueChange={selectTab}>
        <SectionTabList label="Admin sections" tabs={ADMIN_TABS} icons={TAB_ICONS} />
        <AdminUnlockBar />
        {issuedLink !== null && (
          <EnrollmentLinkPanel
            link={issuedLink}
            onDone={() => {
              setIssuedLink(null);
            }}
          />
        )}
        <div className="mt-6">
          <Tabs.Content value="team">
            <TeamTab onLinkIssued={setIssuedLink} />
          </Tabs.Content>
          <Tabs.Content value="pin-resets">
            <LazyTab>
              <PinResetsTab onLinkIssued={setIssuedLink} />
            </LazyTab>
          </Tabs.Content>
          <Tabs.Content value="qa-testing">
            <LazyTab>
              <QaTab />
            </LazyTab>
          </Tabs.Content>
          <Tabs.Content value="error-logs">
            <LazyTab>
              <ErrorLogsTab />
            </LazyTab>
          </Tabs.Content>
          <Tabs.Content value="ai-prompts">
            <LazyTab>
              <PromptsTab draft={promptDraft} onDraftChange={setPromptDraft} />
            </LazyTab>
          </Tabs.Content>
          <Tabs.Content value="system">
            <LazyTab>
              <SystemTab />
            </LazyTab>
          </Tabs.Content>
          <Tabs.Content value="audit-trail">
            <LazyTab>
              <AuditTab />
            </LazyTab>
          </Tabs.Content>
        </div>
      </Tabs.Root>
    </AdminUnlockProvider>
  );
}

function PanelSkeleton() {
  return (
    <div role="status" className="space-y-4">
      <span className="sr-only">Loading the admin panel…</span>
      <Skeleton className="h-11 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}
