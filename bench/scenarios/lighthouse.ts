/** Lighthouse performance and accessibility of the main and suggestions pages, mobile and desktop, signed in. */
import { measureLighthouse, type LighthousePage, type LighthousePreset, type LighthouseResult } from '../lib/lighthouse.js';
import { mainPageSkipReason } from '../lib/main-page.js';
import { say, step } from '../lib/output.js';
import type { ReadyLine } from '../lib/protocol.js';
import type { Step, TargetResult } from '../lib/results.js';
import { signedInCookie } from '../lib/scenario.js';
import { SETTINGS } from '../lib/settings.js';
import { fixed, formatTable } from '../lib/table.js';

const PATHS = ['/', '/suggestions'] as const;
const PRESETS: readonly LighthousePreset[] = ['mobile', 'desktop'];

/** Lighthouse performance score floors (0–100); accessibility is reported, not gated. */
export const LIGHTHOUSE_TARGETS: Record<LighthousePreset, number> = { mobile: 95, desktop: 100 };

const pageName = (path: string) => (path === '/' ? 'main page' : `${path.slice(1)} page`);

function describe(result: LighthouseResult): void {
  say(`  Lighthouse ${result.lighthouse}, Chromium ${result.chromium}; median run of ${SETTINGS.lighthouseRuns} by performance score`);
  const table = formatTable(
    ['page', 'preset', 'performance', 'runs', 'accessibility', 'LCP ms', 'TBT ms', 'FCP ms', 'CLS', 'unused JS KiB'],
    result.pages.map(({ path, preset, median, runs }) => [
      path,
      preset,
      String(median.performance),
      runs.map((run) => run.performance).join('/'),
      String(median.accessibility),
      String(median.largestContentfulPaintMs),
      String(median.totalBlockingTimeMs),
      String(median.firstContentfulPaintMs),
      fixed(median.cumulativeLayoutShift, 3),
      fixed(median.unusedJavaScriptBytes / 1024, 1),
    ]),
    ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  );
  say(table.replace(/^/gm, '  '));
  for (const page of result.pages) {
    if (page.median.accessibilityFailures.length > 0) say(`  ${page.path} (${page.preset}) accessibility audits failed: ${page.median.accessibilityFailures.join(', ')}`);
    for (const warning of new Set(page.runs.flatMap((run) => run.warnings))) say(`  ${page.path} (${page.preset}) Lighthouse warning: ${warning}`);
  }
}

export async function runLighthouse(clientDir: string | undefined, ready: ReadyLine): Promise<Step<LighthouseResult>> {
  const reason = await mainPageSkipReason(clientDir);
  if (reason !== undefined) {
    say(`Lighthouse: ${reason}: not measured`);
    return { status: 'skipped', message: reason };
  }
  say(`Lighthouse: ${PATHS.join(' and ')}, signed in, ${PRESETS.join(' and ')} presets (simulated throttling), ${SETTINGS.lighthouseRuns} runs each`);
  const result = await step(async () =>
    measureLighthouse({
      baseUrl: `http://127.0.0.1:${ready.appPort}`,
      cookie: await signedInCookie(ready),
      paths: PATHS,
      presets: PRESETS,
      runs: SETTINGS.lighthouseRuns,
      ...(SETTINGS.lighthouseReportDir === undefined ? {} : { reportDir: SETTINGS.lighthouseReportDir }),
    }),
  );
  if (result.status === 'done') describe(result.result);
  else say(`  ERROR: ${result.message}`);
  say();
  return result;
}

function pageTargets(page: LighthousePage): TargetResult[] {
  const name = `${pageName(page.path)} Lighthouse (${page.preset})`;
  const floor = LIGHTHOUSE_TARGETS[page.preset];
  const { median } = page;
  return [
    {
      name: `${name} performance`,
      target: `median of ${page.runs.length} ≥ ${floor}`,
      measured: `${median.performance} (runs ${page.runs.map((run) => run.performance).join('/')}; LCP ${median.largestContentfulPaintMs} ms, TBT ${median.totalBlockingTimeMs} ms)`,
      status: median.performance >= floor ? 'PASS' : 'FAIL',
    },
    {
      name: `${name} accessibility`,
      target: 'reported',
      measured: `${median.accessibility}${median.accessibilityFailures.length === 0 ? '' : ` (failed: ${median.accessibilityFailures.join(', ')})`}`,
      status: 'INFO',
    },
  ];
}

export function lighthouseTargets(lighthouse: Step<LighthouseResult>): TargetResult[] {
  if (lighthouse.status !== 'done') {
    return [{ name: 'Lighthouse', target: `performance ≥ ${LIGHTHOUSE_TARGETS.mobile} mobile, ${LIGHTHOUSE_TARGETS.desktop} desktop`, measured: lighthouse.message, status: lighthouse.status === 'skipped' ? 'SKIPPED' : 'FAIL' }];
  }
  return lighthouse.result.pages.flatMap(pageTargets);
}
