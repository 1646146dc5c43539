import clsx from 'clsx';
import type { DecisionOutcome } from '../../../../common/api/decisions';
import type { CoverageMatrix } from '../../../../common/contract/activity';
import { InlineError } from '../../../components/ui/inline-error';
import { LoadError } from '../../../components/ui/load-error';
import { useComponentDecisions, useReviewCoverage } from '../api/analytics';
import { plural } from '../../../lib/plural';
import { ScrollRegion } from '../../../components/ui/scroll-region';
import { Skeleton } from '../../../components/ui/skeleton';
import { EmptyState, ListSkeleton, Panel } from '../../../components/ui/panel';
import { DecisionChip } from './decision-chip';

type Cell = CoverageMatrix['components'][number]['cells'][number];

/**
 * What the matrix knows of the decisions: nothing yet (a placeholder, never 'Not decided'), or
 * each component's current outcome (null when undecided; a component absent from the counts has
 * none). A failure shows its own error and no decisions in the rows.
 */
type Decisions = { state: 'loading' } | { state: 'ready'; of: (componentId: string) => DecisionOutcome | null };

/** What a member did on a component, in words: "2 comments, 1 vote", or "No comments or votes". */
export function cellText(cell: Cell): string {
  if (cell.comments === 0 && cell.votes === 0) return 'No comments or votes';
  return [cell.comments > 0 ? plural(cell.comments, 'comment') : null, cell.votes > 0 ? plural(cell.votes, 'vote') : null].filter((part) => part !== null).join(', ');
}

/**
 * Review coverage: a members × components matrix of who commented on or voted on what, with each
 * component's decision, and the components nobody has commented on, so a lead sees where the
 * review is thin.
 */
export function CoverageTab() {
  const coverage = useReviewCoverage();
  const decisions = useComponentDecisions();
  const matrix = coverage.data;
  if (coverage.isPending) {
    return (
      <Panel title="Review coverage">
        <ListSkeleton label="Loading the review coverage…" rows={6} />
      </Panel>
    );
  }
  if (coverage.isError || matrix === undefined) return <LoadError title="The review coverage could not be loaded" query={coverage} />;
  return (
    <div className="space-y-6">
      <NotReviewed matrix={matrix} />
      <CoverageMatrixPanel matrix={matrix} decisions={decisions} />
    </div>
  );
}

function NotReviewed({ matrix }: { matrix: CoverageMatrix }) {
  const total = matrix.components.length;
  const open = matrix.components.filter((component) => component.comments === 0);
  return (
    <Panel title="Not reviewed yet" description={total === 0 ? undefined : `${total - open.length} of ${plural(total, 'component')} have comments.`}>
      {total === 0 ? (
        <EmptyState>There are no components to review.</EmptyState>
      ) : open.length === 0 ? (
        <EmptyState>Every component has at least one comment.</EmptyState>
      ) : (
        <ul aria-label="Components nobody has commented on" className="flex flex-wrap gap-2">
          {open.map((component) => (
            <li key={component.id} className="rounded-full border border-amber-200 bg-amber-50 px-3 py-1 text-sm font-medium text-amber-900">
              {component.title}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

type DecisionsQuery = ReturnType<typeof useComponentDecisions>;

function CoverageMatrixPanel({ matrix, decisions: query }: { matrix: CoverageMatrix; decisions: DecisionsQuery }) {
  const { members, components } = matrix;
  const counts = query.data;
  // Counts seen before show while they are asked again; an error matters only without them.
  const decisions: Decisions | null =
    counts !== undefined ? { state: 'ready', of: (id) => counts.components[id]?.decision ?? null } : query.isError ? null : { state: 'loading' };
  return (
    <Panel title="Who reviewed what" description={<Legend />}>
      {members.length === 0 || components.length === 0 ? (
        <EmptyState>{members.length === 0 ? 'No members yet.' : 'There are no components to review.'}</EmptyState>
      ) : (
        <>
          {decisions === null ? (
            <InlineError
              title="The decisions could not be loaded"
              error={query.error}
              retrying={query.isFetching}
              onRetry={() => {
                void query.refetch();
              }}
              className="mb-4 rounded-lg"
            />
          ) : (
            <DecidedSummary matrix={matrix} decisions={decisions} />
          )}
          {/* `relative`: the cells' screen-reader words are positioned absolutely, and must scroll with
              the table instead of widening the page (ScrollRegion is `relative`). */}
          <ScrollRegion label="Review coverage table, scrolls sideways" className="-mx-5 overflow-x-auto focus-visible:-outline-offset-2 sm:-mx-6">
            <table className="w-full border-separate border-spacing-0 text-sm">
              <caption className="sr-only">Review coverage: each component (rows) with its decision, and the comments and votes of each member (columns) on it</caption>
              <thead>
                <tr>
                  <th scope="col" className="sticky left-0 z-10 border-b border-slate-200 bg-white px-3 py-2 pl-5 text-left align-bottom text-xs font-semibold tracking-wide text-slate-600 uppercase sm:pl-6">
                    Component
                  </th>
                  {members.map((member) => (
                    <th key={member} scope="col" className="border-b border-slate-200 px-2 py-2 align-bottom text-xs font-semibold text-slate-700">
                      <span className="block max-w-28 text-center break-words">{member}</span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {components.map((component) => (
                  <tr key={component.id} className="group">
                    {/* A component nobody has commented on stands out in amber, as in the list above. */}
                    <th
                      scope="row"
                      className={clsx(
                        'sticky left-0 z-10 border-b border-slate-100 px-3 py-1.5 pl-5 text-left font-medium sm:pl-6',
                        component.comments === 0 ? 'bg-amber-50 text-amber-900' : 'bg-white text-slate-900 group-hover:bg-slate-50',
                      )}
                    >
                      {/* The decision sits in the row header, the column that stays put while the
                          members scroll by: beside the title, or under it on a phone, where a
                          column of its own would push every member off the first screen. */}
                      <div className="flex min-w-40 flex-col items-start gap-1 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
                        <span>{component.title}</span>
                        {decisions !== null && <DecisionOf decisions={decisions} componentId={component.id} />}
                      </div>
                    </th>
                    {members.map((member, index) => {
                      const cell = component.cells[index] ?? { comments: 0, votes: 0 };
                      return (
                        <td key={member} className="border-b border-slate-100 px-2 py-1.5 text-center group-hover:bg-slate-50">
                          <CoverageMark cell={cell} />
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </>
      )}
    </Panel>
  );
}

/** A component's decision, or a placeholder while the decisions load (hidden from screen readers: the summary announces the loading). */
function DecisionOf({ decisions, componentId }: { decisions: Decisions; componentId: string }) {
  if (decisions.state === 'loading') return <Skeleton className="h-5 w-28 shrink-0 rounded-full" />;
  return <DecisionChip outcome={decisions.of(componentId)} className="shrink-0" />;
}

/** "2 of 5 components decided", over the components in the matrix; a placeholder until the decisions arrive. */
function DecidedSummary({ matrix, decisions }: { matrix: CoverageMatrix; decisions: Decisions }) {
  if (decisions.state === 'loading') {
    return (
      <div role="status" className="mb-4 flex h-5 items-center">
        <span className="sr-only">Loading the decisions…</span>
        <Skeleton className="h-4 w-48" />
      </div>
    );
  }
  const total = matrix.components.length;
  const decided = matrix.components.filter((component) => decisions.of(component.id) !== null).length;
  return (
    <p className="mb-4 text-sm font-medium text-slate-700">
      {decided} of {plural(total, 'component')} decided
    </p>
  );
}

/**
 * A compact mark for sighted readers, the words for screen readers (and on hover): the number of
 * comments in a filled circle, a small dot for votes, a faint point for neither.
 */
function CoverageMark({ cell }: { cell: Cell }) {
  const text = cellText(cell);
  const commented = cell.comments > 0;
  const voted = cell.votes > 0;
  return (
    <span title={text} className="inline-flex h-6 items-center justify-center gap-1">
      <span aria-hidden="true" className="inline-flex items-center gap-1">
        {commented && <CommentMark count={cell.comments} />}
        {voted && <VoteMark />}
        {!commented && !voted && <span className="text-slate-400">·</span>}
      </span>
      <span className="sr-only">{text}</span>
    </span>
  );
}

function CommentMark({ count }: { count: number }) {
  return <span className="inline-flex h-6 min-w-6 items-center justify-center rounded-full bg-brand-600 px-1 text-xs font-semibold text-white tabular-nums">{count}</span>;
}

function VoteMark() {
  return <span className="inline-block h-2.5 w-2.5 rounded-full bg-sky-500" />;
}

function Legend() {
  return (
    <span className="flex flex-wrap items-center gap-x-4 gap-y-1">
      <span className="inline-flex items-center gap-1.5">
        <span aria-hidden="true">
          <CommentMark count={2} />
        </span>
        comments (how many)
      </span>
      <span className="inline-flex items-center gap-1.5">
        <span aria-hidden="true">
          <VoteMark />
        </span>
        voted
      </span>
      <span className="inline-flex items-center gap-1.5">
        <span aria-hidden="true" className="text-slate-400">
          ·
        </span>
        neither
      </span>
    </span>
  );
}
