/**
 * Lighthouse on every screen: performance (mobile, and desktop on the main and suggestions pages)
 * where there is a performance target, and accessibility everywhere, each in the session that
 * screen needs (the admin panel as an admin, the sign-in screen signed out).
 */
import { ROUTES } from '../../src/common/routes.js';
import {
  measureLighthouse,
  type LighthouseAudit,
  type LighthousePage,
  type LighthousePreset,
  type LighthouseResult,
  type LighthouseRun,
  type LighthouseSession,
} from '../lib/lighthouse.js';
import { mainPageSkipReason } from '../lib/main-page.js';
import { say, step } from '../lib/output.js';
import type { ReadyLine } from '../lib/protocol.js';
import type { Step, TargetResult } from '../lib/results.js';
import { signedInCookie } from '../lib/scenario.js';
import { LIGHTHOUSE_FILTER, SETTINGS } from '../lib/settings.js';
import { fixed, formatTable } from '../lib/table.js';

/** Lighthouse performance score floors (0–100), median of SETTINGS.lighthouseRuns runs. */
export const LIGHTHOUSE_TARGETS: Record<LighthousePreset, number> = { mobile: 95, desktop: 100 };
/** Every run of every screen, whatever its preset. */
export const ACCESSIBILITY_TARGET = 100;

interface Screen {
  name: string;
  path: string;
  session: LighthouseSession;
  /** The presets with a performance target; none: accessibility alone, one mobile run. */
  performance: readonly LighthousePreset[];
}

/** Keyed by ROUTES, so a new screen fails the typecheck until it has its line here. */
const ROUTE_SCREENS: Record<keyof typeof ROUTES, Screen> = {
  home: { name: 'main page', path: ROUTES.home, session: 'member', performance: ['mobile', 'desktop'] },
  suggestions: { name: 'suggestions page', path: ROUTES.suggestions, session: 'member', performance: ['mobile', 'desktop'] },
  analytics: { name: 'analytics page', path: ROUTES.analytics, session: 'member', performance: ['mobile'] },
  // A member gets 'Access Denied' there: the panel itself needs the admin.
  admin: { name: 'admin panel', path: ROUTES.admin, session: 'admin', performance: ['mobile'] },
  capabilities: { name: 'capabilities page', path: ROUTES.capabilities, session: 'member', performance: [] },
  principles: { name: 'principles page', path: ROUTES.principles, session: 'member', performance: [] },
};

/** The screens a route alone does not reach: signed out, any path shows the sign-in screen; signed in, an unknown one the not-found page. */
const OTHER_SCREENS: readonly (Screen & { errorStatus?: true })[] = [
  { name: 'sign-in screen', path: ROUTES.home, session: 'signed out', performance: [] },
  // Answered with a 404 status (the server knows the screens), which Lighthouse must be told to accept.
  { name: 'not-found page', path: '/no-such-page', session: 'member', performance: [], errorStatus: true },
];

const SCREENS: readonly (Screen & { errorStatus?: true })[] = [...Object.values(ROUTE_SCREENS), ...OTHER_SCREENS];

/** Performance runs first, the main and suggestions pages leading as they always have; then the accessibility-only pages. */
const PLANNED_AUDITS: readonly LighthouseAudit[] = [
  ...SCREENS.flatMap((screen) =>
    screen.performance.map((preset) => ({ name: screen.name, path: screen.path, session: screen.session, preset, performance: true, runCount: SETTINGS.lighthouseRuns })),
  ),
  ...SCREENS.filter((screen) => screen.performance.length === 0).map((screen) => ({
    name: screen.name,
    path: screen.path,
    session: screen.session,
    preset: 'mobile' as const,
    performance: false,
    runCount: 1,
    ...(screen.errorStatus === true ? { errorStatus: true } : {}),
  })),
];

const AUDITS = PLANNED_AUDITS.filter((audit) => LIGHTHOUSE_FILTER === undefined || LIGHTHOUSE_FILTER.test(`${audit.name} ${audit.preset}`));

const orDash = (value: number | null, format: (value: number) => string = String) => (value === null ? '—' : format(value));

/** Each failed audit once, with the runs it failed in, from the first run that had it. */
function failuresAcross(runs: readonly LighthouseRun[]): { failure: LighthouseRun['accessibilityFailures'][number]; failedRuns: number }[] {
  const seen = new Map<string, { failure: LighthouseRun['accessibilityFailures'][number]; failedRuns: number }>();
  for (const run of runs) {
    for (const failure of run.accessibilityFailures) {
      const entry = seen.get(failure.id);
      if (entry === undefined) seen.set(failure.id, { failure, failedRuns: 1 });
      else entry.failedRuns += 1;
    }
  }
  return [...seen.values()];
}

function describe(result: LighthouseResult): void {
  const performanceSeconds = result.pages.filter((page) => page.performance).flatMap((page) => page.runs.map((run) => run.seconds));
  const accessibilitySeconds = result.pages.filter((page) => !page.performance).flatMap((page) => page.runs.map((run) => run.seconds));
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  say(
    `  Lighthouse ${result.lighthouse}, Chromium ${result.chromium}; median run of ${SETTINGS.lighthouseRuns} by performance score; ` +
      `${fixed(result.seconds, 0)} s in all (performance runs ${fixed(sum(performanceSeconds), 0)} s, accessibility-only runs ${fixed(sum(accessibilitySeconds), 0)} s)`,
  );
  const table = formatTable(
    ['page', 'path', 'session', 'preset', 'performance', 'runs', 'accessibility', 'LCP ms', 'TBT ms', 'FCP ms', 'CLS', 'unused JS KiB', 's/run'],
    result.pages.map((page) => {
      const { runs } = page;
      const seconds = runs.length === 0 ? '—' : fixed(runs.reduce((total, run) => total + run.seconds, 0) / runs.length, 1);
      const accessibility = runs.map((run) => run.accessibility).join('/');
      if (page.status === 'error') return [page.name, page.path, page.session, page.preset, 'ERROR', '', accessibility, '', '', '', '', '', seconds];
      const { median } = page;
      return [
        page.name,
        page.path,
        page.session,
        page.preset,
        orDash(median.performance),
        page.performance ? runs.map((run) => orDash(run.performance)).join('/') : '—',
        accessibility,
        orDash(median.largestContentfulPaintMs),
        orDash(median.totalBlockingTimeMs),
        orDash(median.firstContentfulPaintMs),
        orDash(median.cumulativeLayoutShift, (value) => fixed(value, 3)),
        orDash(median.unusedJavaScriptBytes, (value) => fixed(value / 1024, 1)),
        seconds,
      ];
    }),
    ['left', 'left', 'left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  );
  say(table.replace(/^/gm, '  '));
  for (const page of result.pages) {
    const label = `${page.name} (${page.preset})`;
    if (page.status === 'error') say(`  ${label} ERROR: ${page.message}`);
    for (const { failure, failedRuns } of failuresAcross(page.runs)) {
      say(`  ${label} accessibility audit failed in ${failedRuns} of ${page.runs.length} runs: ${failure.id} (${failure.title}), ${failure.elementCount} element${failure.elementCount === 1 ? '' : 's'}`);
      for (const element of failure.elements) {
        say(`    ${element.selector}  ${element.snippet}${element.explanation === '' ? '' : `  — ${element.explanation.replace(/\s+/g, ' ')}`}`);
      }
    }
    for (const warning of new Set(page.runs.flatMap((run) => run.warnings))) say(`  ${label} Lighthouse warning: ${warning}`);
  }
}

export async function runLighthouse(clientDir: string | undefined, ready: ReadyLine): Promise<Step<LighthouseResult>> {
  const reason = await mainPageSkipReason(clientDir);
  if (reason !== undefined) {
    say(`Lighthouse: ${reason}: not measured`);
    return { status: 'skipped', message: reason };
  }
  const performanceRuns = AUDITS.filter((audit) => audit.performance).reduce((total, audit) => total + audit.runCount, 0);
  const accessibilityOnly = AUDITS.filter((audit) => !audit.performance);
  say(
    `Lighthouse (simulated throttling): performance and accessibility on ${AUDITS.filter((audit) => audit.performance)
      .map((audit) => `${audit.path} ${audit.preset}`)
      .join(', ')} (${SETTINGS.lighthouseRuns} runs each, ${performanceRuns} in all); ` +
      `accessibility alone on ${accessibilityOnly.map((audit) => audit.name).join(', ')} (one mobile run each)`,
  );
  const result = await step(async () =>
    measureLighthouse({
      baseUrl: `http://127.0.0.1:${ready.appPort}`,
      cookies: { member: await signedInCookie(ready), admin: await signedInCookie(ready, 'admin') },
      audits: AUDITS,
      ...(SETTINGS.lighthouseReportDir === undefined ? {} : { reportDir: SETTINGS.lighthouseReportDir }),
    }),
  );
  if (result.status === 'done') describe(result.result);
  else say(`  ERROR: ${result.message}`);
  say();
  return result;
}

function performanceTarget(page: LighthousePage): TargetResult {
  const name = `${page.name} Lighthouse performance (${page.preset})`;
  const floor = LIGHTHOUSE_TARGETS[page.preset];
  const target = `median of ${page.runCount} ≥ ${floor}`;
  if (page.status === 'error') return { name, target, measured: `error: ${page.message}`, status: 'FAIL' };
  const { median } = page;
  const performance = median.performance ?? Number.NaN;
  return {
    name,
    target,
    measured: `${orDash(median.performance)} (runs ${page.runs.map((run) => orDash(run.performance)).join('/')}; LCP ${orDash(median.largestContentfulPaintMs)} ms, TBT ${orDash(median.totalBlockingTimeMs)} ms)`,
    status: performance >= floor ? 'PASS' : 'FAIL',
  };
}

/** One row per screen over all its runs and presets: every run must score 100. */
function accessibilityTarget(pages: readonly LighthousePage[]): TargetResult {
  const first = pages[0];
  const name = `${first?.name ?? 'page'} Lighthouse accessibility`;
  const target = `${ACCESSIBILITY_TARGET} in every run`;
  const errors = pages.flatMap((page) => (page.status === 'error' ? [`${page.preset}: ${page.message}`] : []));
  const scores = pages.flatMap((page) => page.runs.map((run) => run.accessibility));
  const lowest = Math.min(...scores);
  const byPreset = pages.map((page) => `${page.preset} ${page.runs.map((run) => run.accessibility).join('/')}`).join(', ');
  const failed = pages.flatMap((page) => failuresAcross(page.runs).map(({ failure }) => failure.id));
  const measured =
    errors.length > 0
      ? `error: ${errors.join('; ')}`
      : `${fixed(lowest, 0)} (${byPreset})${failed.length === 0 ? '' : `; failed: ${[...new Set(failed)].join(', ')}`}`;
  return { name, target, measured, status: errors.length === 0 && scores.length > 0 && lowest >= ACCESSIBILITY_TARGET ? 'PASS' : 'FAIL' };
}

export function lighthouseTargets(lighthouse: Step<LighthouseResult>): TargetResult[] {
  if (lighthouse.status !== 'done') {
    return [
      {
        name: 'Lighthouse',
        target: `performance ≥ ${LIGHTHOUSE_TARGETS.mobile} mobile, ${LIGHTHOUSE_TARGETS.desktop} desktop; accessibility ${ACCESSIBILITY_TARGET}`,
        measured: lighthouse.message,
        status: lighthouse.status === 'skipped' ? 'SKIPPED' : 'FAIL',
      },
    ];
  }
  const { pages } = lighthouse.result;
  const names = [...new Set(pages.map((page) => page.name))];
  return [...pages.filter((page) => page.performance).map(performanceTarget), ...names.map((name) => accessibilityTarget(pages.filter((page) => page.name === name)))];
}
