/** Bundle size: the client entry's initial JavaScript, and the main and analytics pages' (entry + the page's chunk, without the diagram or the other analytics tabs). */
import { fileURLToPath } from 'node:url';
import { formatBundleReport, INITIAL_JS_LIMIT_KIB, kib, measureBundle, type BundleReport } from '../../scripts/bundle-size.js';
import { say } from '../lib/output.js';
import type { PageBundle, Step, TargetResult } from '../lib/results.js';
import { unmeasured } from '../lib/scenario.js';

export const CLIENT_DIR = fileURLToPath(new URL('../../dist/client', import.meta.url));

/** Each page measured, with the heavy chunk it must leave out of its first load. */
const PAGES = {
  main: { label: 'Main page', targetName: 'main page initial JavaScript', chunk: 'review-home-page', lazyChunk: 'incident-flow-diagram' },
  analytics: { label: 'Analytics page', targetName: 'analytics page initial JavaScript', chunk: 'analytics-page', lazyChunk: 'users-tab' },
} as const;
type PageSpec = (typeof PAGES)[keyof typeof PAGES];

export interface BundleOutcome {
  bundle: BundleReport;
  pageBundle: Step<PageBundle>;
  analyticsPageBundle: Step<PageBundle>;
}

function pageBundle(bundle: BundleReport, spec: PageSpec): Step<PageBundle> {
  if (bundle.status !== 'measured') return { status: 'skipped', message: bundle.message };
  const page = bundle.lazyChunks.find((chunk) => chunk.name === spec.chunk);
  if (page === undefined) return { status: 'error', message: `the manifest has no lazy chunk named ${spec.chunk}` };
  const lazy = bundle.lazyChunks.find((chunk) => chunk.name === spec.lazyChunk);
  const entryFiles = new Set(bundle.entries.flatMap((entry) => entry.js.files));
  const pageFiles = new Set([...entryFiles, ...page.js.files]);
  const lazyFile = lazy?.js.files[0];
  return {
    status: 'done',
    result: {
      chunk: page.key,
      gzipBytes: page.withInitialGzipBytes,
      files: pageFiles.size,
      lazyChunk: lazy?.key ?? null,
      lazyIncluded: lazyFile !== undefined && pageFiles.has(lazyFile),
      lazyAddsFiles: lazy?.js.files.filter((file) => !pageFiles.has(file)).length ?? 0,
      withinLimit: page.withInitialGzipBytes <= INITIAL_JS_LIMIT_KIB * 1024,
    },
  };
}

function formatPageBundle(spec: PageSpec, measured: Step<PageBundle>): string {
  if (measured.status !== 'done') return `${spec.label} initial JavaScript: NOT MEASURED: ${measured.message}`;
  const { gzipBytes, files, lazyChunk, lazyIncluded, lazyAddsFiles, withinLimit } = measured.result;
  const lazy =
    lazyChunk === null
      ? `no ${spec.lazyChunk} chunk in this build`
      : lazyIncluded
        ? `the ${spec.lazyChunk} chunk is INCLUDED (imported statically)`
        : `${spec.lazyChunk} not included (lazy; it adds ${lazyAddsFiles} more file(s), see its row above)`;
  return (
    `${spec.label} initial JavaScript (entry + ${spec.chunk} and its static imports, ${files} files): ${kib(gzipBytes)} gzip; ` +
    `target ≤ ${INITIAL_JS_LIMIT_KIB} KiB: ${withinLimit ? 'PASS' : 'FAIL'}; ${lazy}`
  );
}

function pageTarget(spec: PageSpec, measured: Step<PageBundle>): TargetResult {
  const target = `≤ ${INITIAL_JS_LIMIT_KIB} KiB gzip, without ${spec.lazyChunk}`;
  if (measured.status !== 'done') return unmeasured(spec.targetName, target, measured);
  const { gzipBytes, withinLimit, lazyIncluded } = measured.result;
  const text = `${kib(gzipBytes)} (entry + ${spec.chunk})${lazyIncluded ? `, ${spec.lazyChunk} included` : ''}`;
  return { name: spec.targetName, target, measured: text, status: withinLimit && !lazyIncluded ? 'PASS' : 'FAIL' };
}

export function runBundle(): BundleOutcome {
  const bundle = measureBundle(CLIENT_DIR);
  say(formatBundleReport(bundle));
  const main = pageBundle(bundle, PAGES.main);
  const analytics = pageBundle(bundle, PAGES.analytics);
  say(formatPageBundle(PAGES.main, main));
  say(formatPageBundle(PAGES.analytics, analytics));
  say();
  return { bundle, pageBundle: main, analyticsPageBundle: analytics };
}

export function bundleTargets({ bundle, pageBundle, analyticsPageBundle }: BundleOutcome): TargetResult[] {
  const targets: TargetResult[] = [];
  const bundleTarget = `≤ ${INITIAL_JS_LIMIT_KIB} KiB gzip`;
  if (bundle.status === 'measured') {
    targets.push({ name: 'initial JavaScript', target: bundleTarget, measured: kib(bundle.initialJsGzipBytes), status: bundle.withinLimit ? 'PASS' : 'FAIL' });
  } else {
    // No client build is a server-only tree; a build without a manifest cannot be checked, and fails.
    targets.push({ name: 'initial JavaScript', target: bundleTarget, measured: bundle.message, status: bundle.status === 'missing-client' ? 'SKIPPED' : 'FAIL' });
  }
  targets.push(pageTarget(PAGES.main, pageBundle), pageTarget(PAGES.analytics, analyticsPageBundle));
  return targets;
}
