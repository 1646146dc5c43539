import { ClipboardCheck, FlaskConical, Loader2, Play } from 'lucide-react';
import { QA_SUITE_GROUPS } from '../../../../common/api/qa';
import type { QaProgress, QaResults, QaRun, QaStatus, QaTestResult } from '../../../../common/contract/qa';
import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { formatDateTime } from '../../../lib/relative-time';
import { useQaProgress, useQaResults, useRunQaTests } from '../api/qa';
import { EmptyState, ListSkeleton, Panel } from '../../../components/ui/panel';
import { Note } from './note';
import { ToneBadge, type Tone } from './tone-badge';

const SUITE_COUNT = QA_SUITE_GROUPS.reduce((sum, group) => sum + group.suites.length, 0);

const STATUS_TONES: Record<QaStatus, Tone> = { passed: 'green', failed: 'red', skipped: 'yellow' };
const STATUS_LABELS: Record<QaStatus, string> = { passed: 'Passed', failed: 'Failed', skipped: 'Skipped' };

/** 'Running: Voting (4 of 18)': the suite being checked is the one after those already done. */
function progressLine(progress: QaProgress | undefined, ownRunPending: boolean): string | null {
  if (progress?.running === true && progress.suite !== null) {
    const position = Math.min(progress.completedSuites + 1, progress.totalSuites);
    return `Running: ${progress.suite} (${position} of ${progress.totalSuites})`;
  }
  if (progress?.running === true || ownRunPending) return 'Starting the test run…';
  return null;
}

export function QaTab() {
  const run = useRunQaTests();
  const progress = useQaProgress(run.isPending);
  const results = useQaResults();
  const running = run.isPending || progress.data?.running === true;
  const line = progressLine(progress.data, run.isPending);

  return (
    <div className="space-y-6">
      <Panel
        title="QA Test Suite"
        icon={<FlaskConical className="h-5 w-5 text-brand-600" aria-hidden="true" />}
        description={`${SUITE_COUNT} suites check the live system, signed in as the QA test user. A full run takes up to about 30 seconds.`}
      >
        <div className="grid gap-4 md:grid-cols-3">
          {QA_SUITE_GROUPS.map((group) => (
            <div key={group.title} className="rounded-lg border border-slate-200 bg-slate-50 p-4">
              <h3 className="font-semibold text-slate-900">
                {group.title} <span className="font-normal text-slate-600">({group.suites.length})</span>
              </h3>
              <ul className="mt-2 list-disc space-y-0.5 pl-5 text-sm text-slate-700">
                {group.suites.map((suite) => (
                  <li key={suite}>{suite}</li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <Note className="mt-4">
          The run signs in as the QA test user and creates it first if it does not exist, with the name and PIN configured on the server, so there is
          nothing to set up. It never brings back a QA test user an admin deactivated: reactivate it in Team Management.
        </Note>
        <div className="mt-5 flex flex-wrap items-center gap-4">
          <Button
            disabled={running}
            onClick={() => {
              run.mutate();
            }}
          >
            {running ? <Loader2 className="h-4 w-4 animate-spin motion-reduce:animate-none" aria-hidden="true" /> : <Play className="h-4 w-4" aria-hidden="true" />}
            {run.isPending ? 'Running Tests...' : 'Run Full QA Test Suite'}
          </Button>
          <p role="status" className="text-sm font-medium text-slate-700">
            {line}
          </p>
        </div>
      </Panel>
      <Panel title="Latest Test Results" icon={<ClipboardCheck className="h-5 w-5 text-brand-600" aria-hidden="true" />}>
        {results.isPending && <ListSkeleton label="Loading test results…" />}
        {results.isError && results.data === undefined && <LoadError title="Test results could not be loaded" query={results} />}
        {results.data !== undefined && <ResultsBody results={results.data} />}
      </Panel>
    </div>
  );
}

/** The checks by suite, in the order they ran (the clean-up's own line, if any, last). */
function bySuite(results: readonly QaTestResult[]): [string, QaTestResult[]][] {
  const suites = new Map<string, QaTestResult[]>();
  for (const result of results) suites.set(result.testSuite, [...(suites.get(result.testSuite) ?? []), result]);
  return [...suites];
}

function ResultsBody({ results }: { results: QaResults }) {
  const { run } = results;
  if (run === null || results.results.length === 0) return <EmptyState>No test results available. Run the QA test suite to see results.</EmptyState>;
  return (
    <>
      <RunLine run={run} />
      <RunCounts run={run} />
      <div className="mt-4 space-y-4">
        {bySuite(results.results).map(([suite, checks]) => (
          <SuiteResults key={suite} suite={suite} checks={checks} />
        ))}
      </div>
    </>
  );
}

/** When the run started, how long it took and who started it. */
function RunLine({ run }: { run: QaRun }) {
  const seconds = run.finishedAt === null ? null : Math.max(0, Math.round((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000));
  return (
    <p className="mb-4 text-sm text-slate-700">
      Run by <strong className="font-semibold text-slate-900">{run.runBy}</strong> on <time dateTime={run.startedAt}>{formatDateTime(run.startedAt)}</time>
      {seconds !== null && <>, took {seconds} s</>}
    </p>
  );
}

function SuiteResults({ suite, checks }: { suite: string; checks: QaTestResult[] }) {
  const headingId = useId();
  const passed = checks.filter((check) => check.status === 'passed').length;
  const allPassed = passed === checks.length;
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="flex flex-wrap items-baseline gap-x-2 text-base font-semibold text-slate-900">
        {suite}
        <span className={allPassed ? 'text-sm font-normal text-slate-600' : 'text-sm font-medium text-red-800'}>
          {passed} of {checks.length} passed
        </span>
      </h3>
      <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200" aria-label={`${suite} checks`}>
        {checks.map((result) => (
          <ResultRow key={result.id} result={result} />
        ))}
      </ul>
    </section>
  );
}

function RunCounts({ run }: { run: QaRun }) {
  return (
    <dl className="grid grid-cols-3 gap-3 sm:max-w-md">
      <Count label="Passed" value={run.passed} className="border-emerald-200 bg-emerald-50 text-emerald-800" />
      <Count label="Failed" value={run.failed} className="border-red-200 bg-red-50 text-red-800" />
      <Count label="Skipped" value={run.skipped} className="border-yellow-300 bg-yellow-50 text-yellow-900" />
    </dl>
  );
}

function Count({ label, value, className }: { label: string; value: number; className: string }) {
  return (
    <div className={`rounded-lg border px-3 py-2 text-center ${className}`}>
      <dt className="text-xs font-semibold tracking-wide uppercase">{label}</dt>
      <dd className="text-2xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}

/** One check: why it failed or was skipped goes right under its name. */
function ResultRow({ result }: { result: QaTestResult }) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 px-4 py-3">
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900">{result.testName}</p>
        {result.status !== 'passed' && result.reason !== null && <p className="mt-0.5 text-sm break-words text-slate-700">{result.reason}</p>}
        <p className="mt-0.5 text-xs text-slate-600">{result.duration} ms</p>
      </div>
      <ToneBadge tone={STATUS_TONES[result.status]}>{STATUS_LABELS[result.status]}</ToneBadge>
    </li>
  );
}
