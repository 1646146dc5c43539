/**
 * Main page time to interactive in Chromium: navigation start → the first card with its Comment
 * button laid out and the diagram's boxes rendered, the page scrolled to the diagram as soon as its
 * section is there (see bench/README.md). The page-side code is a
 * string because the bench is type-checked without the DOM library.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page } from 'playwright-core';
import { z } from 'zod';
import { chromiumExecutable, launchChromium } from '../../scripts/chromium.js';
import { errorMessage } from './output.js';
import { summarize, type Summary } from './stats.js';

/** The milestones, most complete first: the measure is the first one the page reaches. */
export type Milestone = 'card+diagram' | 'card' | 'header';

const marksSchema = z.object({
  header: z.number().nullable(),
  card: z.number().nullable(),
  diagram: z.number().nullable(),
  domContentLoaded: z.number().nullable(),
  load: z.number().nullable(),
  firstContentfulPaint: z.number().nullable(),
  responseEnd: z.number().nullable(),
  resources: z.array(z.object({ name: z.string(), start: z.number(), end: z.number() })),
  longTasks: z.array(z.object({ start: z.number(), duration: z.number() })),
});
type Marks = z.infer<typeof marksSchema>;

/** Notes when each milestone first holds; "shown" is laid out with a size and not visibility:hidden. */
const INIT_SCRIPT = `(() => {
  const marks = { header: null, card: null, diagram: null, wentToDiagram: false, longTasks: [] };
  Object.defineProperty(window, '__benchMarks', { value: marks });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) marks.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
  };
  const check = () => {
    const now = performance.now();
    if (marks.header === null) {
      const header = document.querySelector('header');
      if (header !== null && shown(header)) marks.header = now;
    }
    if (marks.card === null) {
      for (const button of document.querySelectorAll('article button')) {
        if (button.textContent.trim() === 'Comment' && shown(button) && shown(button.closest('article'))) { marks.card = now; break; }
      }
    }
    if (marks.diagram === null) {
      // The diagram is drawn as it nears the window: go to it as soon as its section is on the
      // page, as a reader following the link at the top would.
      const section = document.getElementById('incident-flow');
      if (section !== null && !marks.wentToDiagram) { marks.wentToDiagram = true; section.scrollIntoView(); }
      for (const node of document.querySelectorAll('.react-flow__node')) {
        if (shown(node)) { marks.diagram = now; break; }
      }
    }
    if (marks.card === null || marks.diagram === null) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

const READ_MARKS = `(() => {
  const marks = window.__benchMarks || { header: null, card: null, diagram: null, longTasks: [] };
  const navigation = performance.getEntriesByType('navigation')[0];
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const positive = (value) => (typeof value === 'number' && value > 0 ? value : null);
  return {
    header: marks.header, card: marks.card, diagram: marks.diagram, longTasks: marks.longTasks,
    domContentLoaded: positive(navigation && navigation.domContentLoadedEventEnd),
    load: positive(navigation && navigation.loadEventEnd),
    firstContentfulPaint: positive(paint && paint.startTime),
    responseEnd: positive(navigation && navigation.responseEnd),
    resources: performance.getEntriesByType('resource').map((entry) => ({
      name: new URL(entry.name).pathname, start: entry.startTime, end: entry.responseEnd,
    })),
  };
})()`;

const POLL_MS = 50;

async function readMarks(page: Page): Promise<Marks> {
  const parsed = marksSchema.safeParse(await page.evaluate(READ_MARKS));
  if (!parsed.success) throw new Error(`the page's marks could not be read: ${parsed.error.message}`);
  return parsed.data;
}

function reachedOf(marks: Marks, milestone: Milestone): number | null {
  if (milestone === 'card+diagram') return marks.card === null || marks.diagram === null ? null : Math.max(marks.card, marks.diagram);
  return milestone === 'card' ? marks.card : marks.header;
}

export interface MainPageLoad {
  /** Navigation start to the milestone, ms. */
  interactiveMs: number;
  cardMs: number | null;
  diagramMs: number | null;
  headerMs: number | null;
  firstContentfulPaintMs: number | null;
  domContentLoadedMs: number | null;
  loadMs: number | null;
  /** The HTML document's responseEnd. */
  documentMs: number | null;
  /** The document's requests (scripts, styles, API calls) from navigation start, ms: the waterfall. */
  resources: { name: string; start: number; end: number }[];
  /** Main-thread tasks over 50 ms (Long Tasks API) that started before the milestone, ms. */
  longTasks: { start: number; duration: number }[];
}

export interface MainPageResult {
  url: string;
  milestone: Milestone;
  /** Why the milestone is not 'card+diagram', when it is not. */
  fallbackReason?: string;
  warmUp: MainPageLoad | undefined;
  loads: MainPageLoad[];
  summaryMs: Summary;
  chromium: string;
  viewport: { width: number; height: number };
}

export interface MainPageOptions {
  baseUrl: string;
  sessionCookie: { name: string; value: string };
  runs: number;
  /** Give up on a milestone after this long in one load. */
  timeoutMs: number;
}

const VIEWPORT = { width: 1280, height: 900 };

/** Whether the step can run here; a reason when it cannot. */
export async function mainPageSkipReason(clientDir: string | undefined): Promise<string | undefined> {
  if (clientDir === undefined) return 'dist/client is missing';
  return chromiumExecutable().then(
    () => undefined,
    (error: unknown) => errorMessage(error),
  );
}

async function loadOnce(browser: Browser, options: MainPageOptions, milestone: Milestone): Promise<Marks> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const { hostname } = new URL(options.baseUrl);
    await context.addCookies([{ name: options.sessionCookie.name, value: options.sessionCookie.value, domain: hostname, path: '/', httpOnly: true, sameSite: 'Lax' }]);
    await context.addInitScript({ content: INIT_SCRIPT });
    const page = await context.newPage();
    await page.goto(`${options.baseUrl}/`, { waitUntil: 'commit', timeout: options.timeoutMs });
    // Polled from here: the app's CSP forbids the eval a string predicate of waitForFunction needs.
    const deadline = performance.now() + options.timeoutMs;
    for (;;) {
      // A read can fail while the document is still being replaced; the next one will do.
      const marks = await readMarks(page).catch(() => undefined);
      if ((marks !== undefined && reachedOf(marks, milestone) !== null) || performance.now() > deadline) break;
      await sleep(POLL_MS);
    }
    // The load event, for the Performance timing figures, if it has not come yet (bounded).
    await page.waitForLoadState('load', { timeout: 3000 }).catch(() => undefined);
    return await readMarks(page);
  } finally {
    await context.close();
  }
}

function toLoad(marks: Marks, milestone: Milestone): MainPageLoad | undefined {
  const reached = reachedOf(marks, milestone);
  if (reached === null) return undefined;
  return {
    interactiveMs: reached,
    cardMs: marks.card,
    diagramMs: marks.diagram,
    headerMs: marks.header,
    firstContentfulPaintMs: marks.firstContentfulPaint,
    domContentLoadedMs: marks.domContentLoaded,
    loadMs: marks.load,
    documentMs: marks.responseEnd === null ? null : Math.round(marks.responseEnd),
    resources: marks.resources
      .filter((entry) => entry.start <= reached)
      .map((entry) => ({ name: entry.name, start: Math.round(entry.start), end: Math.round(entry.end) })),
    longTasks: marks.longTasks
      .filter((task) => task.start <= reached)
      .map((task) => ({ start: Math.round(task.start), duration: Math.round(task.duration) })),
  };
}

/** One unmeasured load, which also decides the milestone the page can reach, then `runs` measured loads. */
export async function measureMainPage(options: MainPageOptions): Promise<MainPageResult> {
  const browser = await launchChromium();
  try {
    const first = await loadOnce(browser, options, 'card+diagram');
    let milestone: Milestone;
    let fallbackReason: string | undefined;
    if (first.card !== null && first.diagram !== null) {
      milestone = 'card+diagram';
    } else if (first.card !== null) {
      milestone = 'card';
      fallbackReason = `no rendered .react-flow__node within ${options.timeoutMs} ms: measured to the first card with a Comment button`;
    } else if (first.header !== null) {
      milestone = 'header';
      fallbackReason = `no card with a Comment button within ${options.timeoutMs} ms (main page not built yet?): measured to the header`;
    } else {
      throw new Error(`the main page showed neither a header, a card nor the diagram within ${options.timeoutMs} ms`);
    }
    const loads: MainPageLoad[] = [];
    for (let run = 0; run < options.runs; run += 1) {
      const load = toLoad(await loadOnce(browser, options, milestone), milestone);
      if (load === undefined) throw new Error(`load ${run + 1} did not reach the ${milestone} milestone within ${options.timeoutMs} ms`);
      loads.push(load);
    }
    return {
      url: `${options.baseUrl}/`,
      milestone,
      ...(fallbackReason === undefined ? {} : { fallbackReason }),
      warmUp: toLoad(first, milestone),
      loads,
      summaryMs: summarize(loads.map((load) => load.interactiveMs)),
      chromium: browser.version(),
      viewport: VIEWPORT,
    };
  } finally {
    await browser.close();
  }
}
