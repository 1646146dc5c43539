/** The main page's time to interactive in Chromium, on the bench server once the loads are over. */
import { activityRoutes } from '../../src/common/api/activity.js';
import { architectureRoutes } from '../../src/common/api/architecture.js';
import { authRoutes } from '../../src/common/api/auth.js';
import { commentRoutes } from '../../src/common/api/comments.js';
import { EVENTS_PATH } from '../../src/common/api/live-events.js';
import { mainPageSkipReason, measureMainPage, type MainPageLoad, type MainPageResult } from '../lib/main-page.js';
import { say, step } from '../lib/output.js';
import { SESSION_COOKIE, type ReadyLine } from '../lib/protocol.js';
import type { Step, TargetResult } from '../lib/results.js';
import { signedInCookie, unmeasured } from '../lib/scenario.js';
import { SETTINGS } from '../lib/settings.js';
import { fixed, formatTable } from '../lib/table.js';

export const MAIN_PAGE_INTERACTIVE_TARGET_MS = 1500;
const NAME = 'main page interactive (Chromium)';
/** Gives up on a milestone after this long in one load. */
const LOAD_TIMEOUT_MS = 8000;

const ms = (value: number | null) => (value === null ? '—' : fixed(value, 0));

function describeLoads({ loads, summaryMs, milestone, fallbackReason, chromium }: MainPageResult): void {
  say(`  Chromium ${chromium}; milestone: ${milestone}${fallbackReason === undefined ? '' : ` (${fallbackReason})`}`);
  const table = formatTable(
    ['load', 'interactive ms', 'first card ms', 'diagram ms', 'FCP ms', 'DOMContentLoaded ms', 'load event ms'],
    loads.map((load, index) => [
      String(index + 1),
      fixed(load.interactiveMs, 0),
      ms(load.cardMs),
      ms(load.diagramMs),
      ms(load.firstContentfulPaintMs),
      ms(load.domContentLoadedMs),
      ms(load.loadMs),
    ]),
    ['right', 'right', 'right', 'right', 'right', 'right', 'right'],
  );
  say(table.replace(/^/gm, '  '));
  say(`  median ${fixed(summaryMs.median, 0)} ms (min ${fixed(summaryMs.min, 0)}, max ${fixed(summaryMs.max, 0)}); target < ${MAIN_PAGE_INTERACTIVE_TARGET_MS} ms`);
  const median = [...loads].sort((a, b) => a.interactiveMs - b.interactiveMs)[Math.floor((loads.length - 1) / 2)];
  if (median !== undefined) describeMedianLoad(median);
}

/** The median load's waterfall and its long main-thread tasks. */
function describeMedianLoad(median: MainPageLoad): void {
  const shortName = (name: string) => name.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.(js|css)$/, '.$1');
  say(
    `  the median load's requests, ms from navigation start (start–end): document –${ms(median.documentMs)}, ` +
      median.resources.map((entry) => `${shortName(entry.name)} ${entry.start}–${entry.end}`).join(', '),
  );
  const busy = median.longTasks.reduce((sum, task) => sum + task.duration, 0);
  say(
    `  its main-thread tasks over 50 ms before the milestone: ${median.longTasks.length}, ${fixed(busy, 0)} ms in all` +
      (median.longTasks.length === 0 ? '' : ` (start+duration: ${median.longTasks.map((task) => `${task.start}+${task.duration}`).join(', ')})`),
  );
}

export async function runMainPage(clientDir: string | undefined, ready: ReadyLine): Promise<Step<MainPageResult>> {
  const reason = await mainPageSkipReason(clientDir);
  if (reason !== undefined) {
    say(`Main page: ${reason}: not measured`);
    return { status: 'skipped', message: reason };
  }
  say(
    `Main page: Chromium (playwright-core), ${SETTINGS.mainPageRuns} loads after 1 unmeasured, each in a new context (empty cache) with the session cookie; ` +
      'navigation start → the first card with its Comment button laid out and the diagram boxes rendered',
  );
  const result = await step(async () => {
    const cookie = await signedInCookie(ready);
    return measureMainPage({
      baseUrl: `http://127.0.0.1:${ready.appPort}`,
      sessionCookie: { name: SESSION_COOKIE, value: cookie.slice(cookie.indexOf('=') + 1) },
      runs: SETTINGS.mainPageRuns,
      timeoutMs: LOAD_TIMEOUT_MS,
    });
  });
  if (result.status === 'done') describeLoads(result.result);
  else say(`  ERROR: ${result.message}`);
  say();
  return result;
}

export function mainPageTarget(mainPage: Step<MainPageResult>): TargetResult {
  const target = `median of ${SETTINGS.mainPageRuns} < ${MAIN_PAGE_INTERACTIVE_TARGET_MS} ms`;
  if (mainPage.status !== 'done') return unmeasured(NAME, target, mainPage);
  const { summaryMs, milestone, fallbackReason } = mainPage.result;
  return {
    name: NAME,
    target,
    measured:
      `median ${fixed(summaryMs.median, 0)} ms (max ${fixed(summaryMs.max, 0)} ms) to ${milestone === 'card+diagram' ? 'first card + diagram' : milestone}` +
      (fallbackReason === undefined ? '' : ' (fallback milestone)'),
    status: summaryMs.median < MAIN_PAGE_INTERACTIVE_TARGET_MS ? 'PASS' : 'FAIL',
  };
}

const REQUESTS_NAME = 'main page first-screen API requests';

/**
 * The first screen's API calls: who is signed in, the architecture, one counts answer that carries
 * the comment counts, the decisions and the actions the progress line reads, and the page view the
 * activity log records. Anything else, or one of these twice, is a request the first screen should
 * not make.
 */
const FIRST_SCREEN_API: readonly string[] = [authRoutes.user.path, architectureRoutes.get.path, commentRoutes.counts.path, activityRoutes.log.path];

export function mainPageRequestsTarget(mainPage: Step<MainPageResult>): TargetResult {
  const target = `each of ${FIRST_SCREEN_API.join(', ')} once, nothing else (the progress line reads the counts)`;
  if (mainPage.status !== 'done') return unmeasured(REQUESTS_NAME, target, mainPage);
  const problems = new Set<string>();
  const seen: string[] = [];
  for (const load of mainPage.result.loads) {
    const calls = load.resources.map((entry) => entry.name).filter((name) => name.startsWith('/api/') && name !== EVENTS_PATH);
    const extra = calls.filter((name) => !FIRST_SCREEN_API.includes(name));
    const twice = FIRST_SCREEN_API.filter((path) => calls.filter((name) => name === path).length > 1);
    for (const name of [...extra, ...twice.map((path) => `${path} twice`)]) problems.add(name);
    if (seen.length === 0) seen.push(...calls);
  }
  return {
    name: REQUESTS_NAME,
    target,
    measured: problems.size === 0 ? `${seen.join(', ')} in each of ${mainPage.result.loads.length} loads` : `also ${[...problems].join(', ')}`,
    status: problems.size === 0 ? 'PASS' : 'FAIL',
  };
}
