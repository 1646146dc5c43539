import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useState } from 'react';
import type { Architecture } from '../../../common/contract/architecture';
import { PageHeader } from '../../components/layout/page-header';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { useLiveQueryUpdates } from '../../lib/live-events';
import { useCurrentUser } from '../../lib/auth';
import { prefetchArchitecture, useArchitecture } from '../../lib/queries/architecture';
import { useCommentCounts } from '../../lib/queries/comment-counts';
import { CardGroupSection } from './components/card-group-section';
import { IncidentFlowLink, IncidentFlowSection } from './components/incident-flow-section';
import { ExportLinks } from './components/export-links';
import { ReviewProgress } from './components/review-progress';
import { loadCommentPanel, useCommentPanel, type OpenComments } from './use-comment-panel';
import type { CommentCounts } from '../../../common/contract/comments';
import { whenIdle } from '../../lib/use-after-idle';

const CommentPanel = lazy(loadCommentPanel);

// Loading this module means the main page is about to render for a signed-in member: ask for the
// architecture now rather than after React's first commit (see prefetchArchitecture).
prefetchArchitecture();

/**
 * The main page: the welcome, the platform-wide and workflow cards, the incident-flow
 * diagram, the user-experience cards, and the comment panel for whichever one is opened. Comment
 * counts come from one request for the whole page; live events keep them and any open panel current.
 */
export default function ReviewHomePage() {
  useLiveQueryUpdates();
  const { user } = useCurrentUser();
  const firstName = user?.firstName !== undefined && user.firstName.trim() !== '' ? user.firstName : 'User';
  const architecture = useArchitecture();
  const counts = useCommentCounts();
  // The cards and the diagram are most of the page's rendering. As a deferred value they render in
  // a transition, which React cuts into short slices: the welcome paints at once, and a phone's
  // main thread is never held for long (Lighthouse's Total Blocking Time). The counts too, since
  // each change of them renders every card again.
  const shownArchitecture = useDeferredValue(architecture.data ?? null, null);
  const shownCounts = useDeferredValue(counts.data ?? null, null) ?? undefined;
  const panel = useCommentPanel();
  const [panelRequested, setPanelRequested] = useState(false);

  // The panel's code is fetched once the page is idle, so the first Comment click opens it at once.
  useEffect(() => whenIdle(() => void loadCommentPanel(), { timeoutMs: 3000, fallbackMs: 1500 }), []);

  const { openComments: showPanel } = panel;
  // Stable, so the diagram's boxes are not rebuilt on every render of the page.
  const openComments = useCallback<OpenComments>(
    (target, opener) => {
      setPanelRequested(true);
      showPanel(target, opener);
    },
    [showPanel],
  );

  return (
    <div className="min-h-screen">
      <PageHeader
        title="AI-Driven Operations Management"
        subtitle="Architecture Review"
      />
      <main className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <div className="max-w-3xl">
          <h2 className="text-2xl font-bold text-slate-900">Welcome, {firstName}</h2>
          <p className="mt-2 text-slate-600">
            Review the platform architecture with your team: open any card or diagram box to read what others think, comment or propose a change,
            and vote. Your teammates&rsquo; comments and votes appear here as they happen.
          </p>
          <ReviewProgress architecture={architecture.data} counts={counts.data} />
          <ExportLinks />
          {/* The diagram comes after two groups of cards: one step to it from the top. */}
          <p className="mt-1 text-sm">
            <IncidentFlowLink className="inline-flex min-h-6 items-center gap-2 rounded font-medium text-brand-700 underline decoration-brand-300 underline-offset-2 hover:text-brand-800 hover:decoration-brand-600" />
          </p>
        </div>

        {shownArchitecture === null && !architecture.isError && <ArchitectureSkeleton />}
        {architecture.isError && (
          <LoadError className="mt-10" title="The architecture could not be loaded" query={architecture} />
        )}
        {shownArchitecture !== null && <ArchitectureSections architecture={shownArchitecture} counts={shownCounts} onOpenComments={openComments} />}
      </main>

      {panelRequested && (
        <Suspense fallback={null}>
          <CommentPanel target={panel.target} open={panel.open} onOpenChange={panel.setOpen} restoreFocus={panel.restoreFocus} />
        </Suspense>
      )}
    </div>
  );
}

/** Spec order: platform-wide and workflow cards, then the diagram, then the user-experience cards. */
function ArchitectureSections({ architecture, counts, onOpenComments }: { architecture: Architecture; counts: CommentCounts | undefined; onOpenComments: OpenComments }) {
  const [first, second, ...rest] = architecture.groups;
  return (
    <div className="mt-10 space-y-12">
      {first !== undefined && <CardGroupSection group={first} counts={counts} onOpenComments={onOpenComments} />}
      {second !== undefined && <CardGroupSection group={second} counts={counts} onOpenComments={onOpenComments} />}
      <IncidentFlowSection diagram={architecture.diagram} counts={counts} onOpenComments={onOpenComments} />
      {rest.map((group) => (
        <CardGroupSection key={group.id} group={group} counts={counts} onOpenComments={onOpenComments} />
      ))}
    </div>
  );
}

function ArchitectureSkeleton() {
  return (
    <div className="mt-10 space-y-12" role="status">
      <span className="sr-only">Loading the architecture…</span>
      {[5, 5].map((cards, group) => (
        <div key={group}>
          <Skeleton className="h-6 w-64" />
          <Skeleton className="mt-2 h-4 w-96 max-w-full" />
          <div className="mt-5 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {Array.from({ length: cards }, (_, card) => (
              <div key={card} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
                <Skeleton className="h-5 w-2/3" />
                <Skeleton className="mt-3 h-4 w-full" />
                <Skeleton className="mt-2 h-4 w-5/6" />
                <Skeleton className="mt-5 h-4 w-3/4" />
                <Skeleton className="mt-2 h-4 w-2/3" />
                <Skeleton className="mt-2 h-4 w-3/4" />
              </div>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}
