/**
 * Lighthouse on the bench server: the main page and the suggestions page, signed in, with the
 * mobile preset (Lighthouse's default: a mid-range phone, simulated slow 4G and a 4× slower CPU)
 * and the desktop one. Lighthouse drives the Chromium that scripts/chromium.ts resolves, launched
 * by playwright-core with a remote-debugging port Lighthouse connects to: nothing is downloaded.
 * Each page and preset runs several times and the median run (by performance score) is kept, since
 * simulated throttling on a small machine moves the score by a few points from run to run.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import lighthouse, { desktopConfig, type Config, type Result } from 'lighthouse';
import { launchChromium } from '../../scripts/chromium.js';
import { summarize, type Summary } from './stats.js';

export type LighthousePreset = 'mobile' | 'desktop';

export interface LighthouseRun {
  /** Category scores, 0–100. */
  performance: number;
  accessibility: number;
  largestContentfulPaintMs: number;
  totalBlockingTimeMs: number;
  firstContentfulPaintMs: number;
  cumulativeLayoutShift: number;
  /** JavaScript loaded but not run during the load (Lighthouse's "Reduce unused JavaScript"), bytes over the wire. */
  unusedJavaScriptBytes: number;
  /** The accessibility audits that failed, by id. */
  accessibilityFailures: string[];
  /** A run-level warning from Lighthouse (a page that redirected, say). */
  warnings: string[];
}

export interface LighthousePage {
  path: string;
  preset: LighthousePreset;
  runs: LighthouseRun[];
  /** The run of median performance score: the figures reported for the page. */
  median: LighthouseRun;
  performance: Summary;
}

export interface LighthouseResult {
  lighthouse: string;
  chromium: string;
  pages: LighthousePage[];
}

export interface LighthouseOptions {
  baseUrl: string;
  /** The session cookie as a Cookie header value, sent with every request of the page. */
  cookie: string;
  paths: readonly string[];
  presets: readonly LighthousePreset[];
  runs: number;
  /** A folder to keep each run's full Lighthouse report in (JSON), to see what a score is made of. */
  reportDir?: string;
}

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

const CONFIGS: Record<LighthousePreset, Config> = {
  mobile: { extends: 'lighthouse:default', settings: { onlyCategories: ['performance', 'accessibility'] } },
  desktop: { ...desktopConfig, settings: { ...desktopConfig.settings, onlyCategories: ['performance', 'accessibility'] } },
};

function numeric(result: Result, audit: string): number {
  return result.audits[audit]?.numericValue ?? Number.NaN;
}

function unusedBytes(result: Result): number {
  const details = result.audits['unused-javascript']?.details;
  return details !== undefined && 'overallSavingsBytes' in details && typeof details.overallSavingsBytes === 'number' ? details.overallSavingsBytes : 0;
}

function toRun(result: Result): LighthouseRun {
  if (result.runtimeError !== undefined) throw new Error(`Lighthouse: ${result.runtimeError.code}: ${result.runtimeError.message}`);
  const score = (category: string) => Math.round((result.categories[category]?.score ?? Number.NaN) * 100);
  const accessibilityAudits = result.categories.accessibility?.auditRefs.map((ref) => ref.id) ?? [];
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    largestContentfulPaintMs: Math.round(numeric(result, 'largest-contentful-paint')),
    totalBlockingTimeMs: Math.round(numeric(result, 'total-blocking-time')),
    firstContentfulPaintMs: Math.round(numeric(result, 'first-contentful-paint')),
    cumulativeLayoutShift: Math.round(numeric(result, 'cumulative-layout-shift') * 1000) / 1000,
    unusedJavaScriptBytes: unusedBytes(result),
    accessibilityFailures: accessibilityAudits.filter((id) => {
      const audit = result.audits[id];
      return audit !== undefined && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary';
    }),
    warnings: result.runWarnings,
  };
}

export async function measureLighthouse(options: LighthouseOptions): Promise<LighthouseResult> {
  const port = await freePort();
  const browser = await launchChromium({ args: [`--remote-debugging-port=${port}`] });
  let version = '';
  try {
    const pages: LighthousePage[] = [];
    for (const pagePath of options.paths) {
      for (const preset of options.presets) {
        const runs: LighthouseRun[] = [];
        for (let run = 0; run < options.runs; run++) {
          const outcome = await lighthouse(
            `${options.baseUrl}${pagePath}`,
            { port, output: 'json', logLevel: 'error', extraHeaders: { Cookie: options.cookie } },
            CONFIGS[preset],
          );
          if (outcome === undefined) throw new Error(`Lighthouse returned nothing for ${pagePath} (${preset})`);
          version = outcome.lhr.lighthouseVersion;
          if (options.reportDir !== undefined) {
            await mkdir(options.reportDir, { recursive: true });
            const name = `${pagePath.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'main'}-${preset}-${run + 1}.json`;
            await writeFile(path.join(options.reportDir, name), JSON.stringify(outcome.lhr));
          }
          runs.push(toRun(outcome.lhr));
        }
        const byScore = [...runs].sort((a, b) => a.performance - b.performance);
        const median = byScore[Math.floor((byScore.length - 1) / 2)];
        if (median === undefined) throw new Error('no Lighthouse run');
        pages.push({ path: pagePath, preset, runs, median, performance: summarize(runs.map((run) => run.performance)) });
      }
    }
    return { lighthouse: version, chromium: browser.version(), pages };
  } finally {
    await browser.close();
  }
}
