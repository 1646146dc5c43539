import { Info, Sparkles } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import type { NarrativeSummary } from '../../../../common/contract/ai';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { InlineError } from '../../../components/ui/inline-error';
import { formatDateTime, formatRelativeTime } from '../../../lib/relative-time';
import { useNow } from '../../../lib/use-now';
import type { useNarrativeSummary } from '../api/get-narrative-summary';
import { plural } from '../../../lib/plural';
import { CONSENSUS_CUT, KEY_ACTION_CUT, TOP_ACTIONS, TOP_THEMES, confidencePercent } from '../text';
import { PriorityBadge } from './badges';
import { ReviewOutcome } from './review-outcome';
import { ExpandableText } from './expandable-text';
import { NarrativeSections, NetVotes } from './narrative-sections';
import { SkeletonBars } from './skeleton-bars';
import { NarrativeSources } from './sources-dialog';

type NarrativeQuery = ReturnType<typeof useNarrativeSummary>;

/**
 * The AI Summary card: the confidence as a rounded percent, the consensus (cut at 120
 * characters), the top 2 themes and the top 2 actions (cut at 100), then the collapsible themes,
 * actions and conflicts. All of it is AI text, rendered as text.
 */
export function AiSummaryCard({ narrative }: { narrative: NarrativeQuery }) {
  const headingId = useId();
  const data = narrative.data;
  return (
    <Card className="overflow-hidden">
      <section aria-labelledby={headingId} aria-busy={narrative.isFetching}>
        <header className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 bg-linear-to-r from-brand-50 to-white px-5 py-4">
          <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <Sparkles className="h-5 w-5 text-brand-600" aria-hidden="true" /> AI Summary
          </h2>
          {data !== undefined ? <Confidence value={data.confidence} /> : narrative.isPending && <Skeleton className="h-6 w-40" />}
        </header>
        <div className="px-5 py-5">
          {narrative.isPending && <SummarySkeleton />}
          {narrative.isError && data === undefined && (
            <InlineError
              title="The summary could not be made"
              error={narrative.error}
              retrying={narrative.isFetching}
              onRetry={() => {
                if (!narrative.isFetching) void narrative.refetch();
              }}
              roomy
              className="rounded-lg"
            />
          )}
          {data !== undefined && <SummaryBody narrative={data} />}
        </div>
      </section>
    </Card>
  );
}

function Confidence({ value }: { value: number }) {
  const percent = confidencePercent(value);
  return (
    <div className="flex items-center gap-2">
      <span className="text-sm text-slate-700">
        Confidence <strong className="text-base font-semibold text-slate-900 tabular-nums">{percent}</strong>
      </span>
      <span className="h-2 w-20 overflow-hidden rounded-full bg-slate-200" aria-hidden="true">
        <span className="block h-full rounded-full bg-brand-600" style={{ width: percent }} />
      </span>
    </div>
  );
}

function SummaryBody({ narrative }: { narrative: NarrativeSummary }) {
  const now = useNow();
  const themes = narrative.keyThemes.slice(0, TOP_THEMES);
  const actions = narrative.actionItems.slice(0, TOP_ACTIONS);
  const maker = narrative.generatedBy.provider === 'local' ? 'the local analyser' : narrative.generatedBy.model;
  return (
    <div className="space-y-6">
      {narrative.fallback && narrative.notice !== undefined && (
        <p role="note" className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span className="break-words">{narrative.notice}</span>
        </p>
      )}

      <div>
        <h3 className="text-sm font-semibold tracking-wide text-slate-600 uppercase">Overall consensus</h3>
        <ExpandableText text={narrative.overallConsensus} max={CONSENSUS_CUT} context="of the overall consensus" className="mt-1.5 leading-relaxed text-slate-800" />
      </div>

      <ReviewOutcome outcome={narrative.outcome} now={now} />

      <div className="grid gap-6 md:grid-cols-2">
        <TopList title="Top themes" count={themes.length} empty="No themes stand out yet.">
          {themes.map((theme, index) => (
            <li key={`${index}-${theme.theme}`} className="rounded-lg border border-slate-200 p-3">
              <p className="font-semibold break-words text-slate-900">{theme.theme}</p>
              <p className="mt-1 flex flex-wrap items-center gap-2">
                <PriorityBadge priority={theme.priority} />
                <NetVotes value={theme.netVotes} />
              </p>
              <NarrativeSources kind="theme" text={theme.theme} suggestionIds={theme.sources} />
            </li>
          ))}
        </TopList>
        <TopList title="Key actions" count={actions.length} empty="No actions are proposed yet.">
          {actions.map((item, index) => (
            <li key={`${index}-${item.action}`} className="rounded-lg border border-slate-200 p-3">
              <ExpandableText text={item.action} max={KEY_ACTION_CUT} context={`of key action ${index + 1}`} className="text-sm leading-relaxed font-medium text-slate-900" />
              <p className="mt-1.5">
                <PriorityBadge priority={item.priority} />
              </p>
              <NarrativeSources kind="action" text={item.action} suggestionIds={item.sources} />
            </li>
          ))}
        </TopList>
      </div>

      <NarrativeSections narrative={narrative} />

      <p className="text-xs text-slate-600">
        From {plural(narrative.suggestionCount, 'suggestion')} and their votes, by {maker},{' '}
        <time dateTime={narrative.generatedBy.generatedAt} title={formatDateTime(narrative.generatedBy.generatedAt)}>
          {formatRelativeTime(narrative.generatedBy.generatedAt, now)}
        </time>
        .
      </p>
    </div>
  );
}

/** One column of the card's top picks: numbered, or a line saying there are none yet. */
function TopList({ title, count, empty, children }: { title: string; count: number; empty: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <div>
      <h3 id={headingId} className="text-sm font-semibold tracking-wide text-slate-600 uppercase">
        {title}
      </h3>
      {count === 0 ? (
        <p className="mt-1.5 text-sm text-slate-600">{empty}</p>
      ) : (
        <ol aria-labelledby={headingId} className="mt-2 space-y-3">
          {children}
        </ol>
      )}
    </div>
  );
}

/**
 * The card's layout while the summary is on its way: the consensus, two columns of two picks, the
 * three closed sections and the footer, at their usual heights on a phone and on a wide screen, so
 * the table below does not move when the summary arrives.
 */
function SummarySkeleton() {
  const pick = (bars: readonly string[]) => (
    <div className="space-y-2 rounded-lg border border-slate-200 p-3">
      <SkeletonBars bars={bars} />
    </div>
  );
  const theme = ['h-5 w-3/4', 'h-6 w-32', 'h-5 w-28'];
  const action = ['h-5 w-full', 'h-5 w-2/3', 'h-5 w-1/2 md:hidden', 'h-6 w-24', 'h-5 w-28'];
  return (
    <div role="status" className="space-y-6">
      <span className="sr-only">Summarising the suggestions…</span>
      <div className="space-y-2">
        <SkeletonBars bars={['h-4 w-40', 'h-5 w-full', 'h-5 w-full md:hidden', 'h-5 w-full md:hidden', 'h-5 w-2/3 md:hidden', 'h-4 w-20']} />
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        {[theme, action].map((bars, column) => (
          <div key={column} className="space-y-3">
            <SkeletonBars bars={['h-4 w-32']} />
            {pick(bars)}
            {pick(bars)}
          </div>
        ))}
      </div>
      <div className="divide-y divide-slate-200 rounded-lg border border-slate-200">
        {[0, 1, 2].map((row) => (
          <div key={row} className="px-4 py-3.5">
            <SkeletonBars bars={['h-4 w-36']} />
          </div>
        ))}
      </div>
      <div className="space-y-1">
        <SkeletonBars bars={['h-3 w-80 max-w-full', 'h-3 w-1/2 md:hidden']} />
      </div>
    </div>
  );
}
