/**
 * Lighthouse on the bench server: each page of a plan (scenarios/lighthouse.ts) with the mobile
 * preset (Lighthouse's default: a mid-range phone, simulated slow 4G and a 4× slower CPU) or the
 * desktop one, signed in as a member, as an admin or signed out. Lighthouse drives the Chromium
 * that scripts/chromium.ts resolves, launched by playwright-core with a remote-debugging port
 * Lighthouse connects to: nothing is downloaded. A page with a performance target runs several
 * times and the median run (by performance score) is kept, since simulated throttling on a small
 * machine moves the score by a few points from run to run; a page audited for accessibility alone
 * runs once, its score does not depend on the machine.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import lighthouse, { desktopConfig, type Config, type Result } from 'lighthouse';
import { launchChromium } from '../../scripts/chromium.js';
import { errorMessage } from './output.js';
import { SETTINGS } from './settings.js';
import { summarize, type Summary } from './stats.js';

export type LighthousePreset = 'mobile' | 'desktop';
export type LighthouseSession = 'member' | 'admin' | 'signed out';

/** One page of the plan, with one preset. */
export interface LighthouseAudit {
  /** What the output calls it ('main page', 'sign-in screen'). */
  name: string;
  path: string;
  session: LighthouseSession;
  preset: LighthousePreset;
  /** Performance and accessibility, or accessibility alone. */
  performance: boolean;
  runCount: number;
  /** The page answers an error status on purpose (the not-found page's 404), which Lighthouse otherwise refuses to audit. */
  errorStatus?: boolean;
}

/** One element an accessibility audit flagged. */
export interface LighthouseElement {
  selector: string;
  snippet: string;
  /** axe's reason (the contrast found, the name missing), when it gives one. */
  explanation: string;
}

export interface LighthouseFailure {
  id: string;
  title: string;
  /** At most ELEMENTS_KEPT of them; `elementCount` says how many there were. */
  elements: LighthouseElement[];
  elementCount: number;
}

export interface LighthouseRun {
  /** Category scores, 0–100; performance is null on a run without that category. */
  performance: number | null;
  accessibility: number;
  largestContentfulPaintMs: number | null;
  totalBlockingTimeMs: number | null;
  firstContentfulPaintMs: number | null;
  cumulativeLayoutShift: number | null;
  /** JavaScript loaded but not run during the load (Lighthouse's "Reduce unused JavaScript"), bytes over the wire. */
  unusedJavaScriptBytes: number | null;
  /** The accessibility audits that failed, with the elements they flagged. */
  accessibilityFailures: LighthouseFailure[];
  /** A run-level warning from Lighthouse (a page that redirected, say). */
  warnings: string[];
  /** How long the run took, start of the navigation to the report. */
  seconds: number;
}

export type LighthousePage = LighthouseAudit &
  (
    | {
        status: 'done';
        runs: LighthouseRun[];
        /** The run of median performance score (the only run without performance): the figures reported for the page. */
        median: LighthouseRun;
        performanceSummary: Summary | null;
      }
    | { status: 'error'; message: string; runs: LighthouseRun[] }
  );

export interface LighthouseResult {
  lighthouse: string;
  chromium: string;
  pages: LighthousePage[];
  /** The whole step, browser start included. */
  seconds: number;
}

export interface LighthouseOptions {
  baseUrl: string;
  /** The Cookie header value of each signed-in session, sent with every request of the page. */
  cookies: Record<Exclude<LighthouseSession, 'signed out'>, string>;
  audits: readonly LighthouseAudit[];
  /** A folder to keep each run's full Lighthouse report (JSON) and the page load's trace in, to see what a score is made of. */
  reportDir?: string;
}

/** Elements listed per failed audit: enough to find the pattern, not the whole page. */
const ELEMENTS_KEPT = 10;

/** A free local port for Chromium's debugging endpoint. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address === null || typeof address === 'string') reject(new Error('no port for Chromium'));
        else resolve(address.port);
      });
    });
  });
}

function configOf(audit: LighthouseAudit, keepReport: boolean): Config {
  const base = audit.preset === 'desktop' ? desktopConfig : { extends: 'lighthouse:default' };
  return {
    ...base,
    settings: {
      ...base.settings,
      onlyCategories: audit.performance ? ['performance', 'accessibility'] : ['accessibility'],
      // Only a kept report shows it; taken after the load (no score depends on it), it costs 2–3 s a run.
      disableFullPageScreenshot: !keepReport,
      // JavaScript samples in the kept trace, to see which functions a long task ran (they slow the page: figures only).
      ...(SETTINGS.lighthouseProfile ? { additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' } : {}),
      ...(audit.errorStatus === true ? { ignoreStatusCode: true } : {}),
    },
  };
}

function numeric(result: Result, audit: string): number | null {
  const value = result.audits[audit]?.numericValue;
  return value === undefined ? null : value;
}

function unusedBytes(result: Result): number | null {
  const details = result.audits['unused-javascript']?.details;
  if (details === undefined) return null;
  return 'overallSavingsBytes' in details && typeof details.overallSavingsBytes === 'number' ? details.overallSavingsBytes : 0;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The elements of a failed accessibility audit: each table row's `node`. */
function elementsOf(audit: Result['audits'][string]): LighthouseElement[] {
  const details = audit.details;
  if (details?.type !== 'table') return [];
  return details.items.flatMap((item) => {
    const node = item.node;
    if (typeof node !== 'object' || !('type' in node) || node.type !== 'node') return [];
    return [{ selector: text(node.selector), snippet: text(node.snippet), explanation: text(node.explanation) }];
  });
}

function failuresOf(result: Result): LighthouseFailure[] {
  const ids = result.categories.accessibility?.auditRefs.filter((ref) => ref.weight > 0).map((ref) => ref.id) ?? [];
  return ids.flatMap((id) => {
    const audit = result.audits[id];
    if (audit === undefined || audit.score === null || audit.score >= 1 || audit.scoreDisplayMode !== 'binary') return [];
    const elements = elementsOf(audit);
    return [{ id, title: audit.title, elements: elements.slice(0, ELEMENTS_KEPT), elementCount: elements.length }];
  });
}

function toRun(result: Result, seconds: number): LighthouseRun {
  if (result.runtimeError !== undefined) throw new Error(`Lighthouse: ${result.runtimeError.code}: ${result.runtimeError.message}`);
  const score = (category: string) => {
    const value = result.categories[category]?.score;
    return value === undefined || value === null ? null : Math.round(value * 100);
  };
  const rounded = (value: number | null, factor = 1) => (value === null ? null : Math.round(value * factor) / factor);
  return {
    performance: score('performance'),
    accessibility: score('accessibility') ?? Number.NaN,
    largestContentfulPaintMs: rounded(numeric(result, 'largest-contentful-paint')),
    totalBlockingTimeMs: rounded(numeric(result, 'total-blocking-time')),
    firstContentfulPaintMs: rounded(numeric(result, 'first-contentful-paint')),
    cumulativeLayoutShift: rounded(numeric(result, 'cumulative-layout-shift'), 1000),
    unusedJavaScriptBytes: unusedBytes(result),
    accessibilityFailures: failuresOf(result),
    warnings: result.runWarnings,
    seconds: Math.round(seconds * 10) / 10,
  };
}

const slug = (value: string) => value.replace(/\W+/g, '-').replace(/^-|-$/g, '');

export async function measureLighthouse(options: LighthouseOptions): Promise<LighthouseResult> {
  const started = performance.now();
  const port = await freePort();
  const browser = await launchChromium({ args: [`--remote-debugging-port=${port}`] });
  let version = '';
  try {
    const pages: LighthousePage[] = [];
    for (const audit of options.audits) {
      const runs: LighthouseRun[] = [];
      try {
        for (let run = 0; run < audit.runCount; run++) {
          const runStarted = performance.now();
          const extraHeaders = audit.session === 'signed out' ? {} : { extraHeaders: { Cookie: options.cookies[audit.session] } };
          const outcome = await lighthouse(`${options.baseUrl}${audit.path}`, { port, output: 'json', logLevel: 'error', ...extraHeaders }, configOf(audit, options.reportDir !== undefined));
          if (outcome === undefined) throw new Error('Lighthouse returned nothing');
          version = outcome.lhr.lighthouseVersion;
          if (options.reportDir !== undefined) {
            await mkdir(options.reportDir, { recursive: true });
            const name = `${slug(audit.name)}-${audit.preset}-${run + 1}`;
            await writeFile(path.join(options.reportDir, `${name}.json`), JSON.stringify(outcome.lhr));
            // The page load's trace (unthrottled, as recorded; the scores simulate from it): DevTools' Performance panel opens it.
            await writeFile(path.join(options.reportDir, `${name}.trace.json`), JSON.stringify(outcome.artifacts.Trace));
          }
          runs.push(toRun(outcome.lhr, (performance.now() - runStarted) / 1000));
        }
      } catch (error) {
        // One page that cannot be audited does not void the others' figures.
        pages.push({ ...audit, status: 'error', message: errorMessage(error), runs });
        continue;
      }
      const byScore = [...runs].sort((a, b) => (a.performance ?? a.accessibility) - (b.performance ?? b.accessibility));
      const median = byScore[Math.floor((byScore.length - 1) / 2)];
      if (median === undefined) throw new Error(`no Lighthouse run of the ${audit.name}`);
      const scores = runs.flatMap((run) => (run.performance === null ? [] : [run.performance]));
      pages.push({ ...audit, status: 'done', runs, median, performanceSummary: scores.length === 0 ? null : summarize(scores) });
    }
    return { lighthouse: version, chromium: browser.version(), pages, seconds: Math.round((performance.now() - started) / 100) / 10 };
  } finally {
    await browser.close();
  }
}
