/** Bundle size: the client entry's initial JavaScript, and the main page's (entry + its lazy chunk, without the diagram). */
import { fileURLToPath } from 'node:url';
import { formatBundleReport, INITIAL_JS_LIMIT_KIB, kib, measureBundle, type BundleReport } from '../../scripts/bundle-size.js';
import { say } from '../lib/output.js';
import type { MainPageBundle, Step, TargetResult } from '../lib/results.js';
import { unmeasured } from '../lib/scenario.js';

export const CLIENT_DIR = fileURLToPath(new URL('../../dist/client', import.meta.url));
const MAIN_PAGE_CHUNK = 'review-home-page';
const DIAGRAM_CHUNK = 'incident-flow-diagram';

export interface BundleOutcome {
  bundle: BundleReport;
  pageBundle: Step<MainPageBundle>;
}

function mainPageBundle(bundle: BundleReport): Step<MainPageBundle> {
  if (bundle.status !== 'measured') return { status: 'skipped', message: bundle.message };
  const page = bundle.lazyChunks.find((chunk) => chunk.name === MAIN_PAGE_CHUNK);
  if (page === undefined) return { status: 'error', message: `the manifest has no lazy chunk named ${MAIN_PAGE_CHUNK}` };
  const diagram = bundle.lazyChunks.find((chunk) => chunk.name === DIAGRAM_CHUNK);
  const entryFiles = new Set(bundle.entries.flatMap((entry) => entry.js.files));
  const pageFiles = new Set([...entryFiles, ...page.js.files]);
  const diagramFile = diagram?.js.files[0];
  return {
    status: 'done',
    result: {
      chunk: page.key,
      gzipBytes: page.withInitialGzipBytes,
      files: pageFiles.size,
      diagramChunk: diagram?.key ?? null,
      diagramIncluded: diagramFile !== undefined && pageFiles.has(diagramFile),
      diagramAddsFiles: diagram?.js.files.filter((file) => !pageFiles.has(file)).length ?? 0,
      withinLimit: page.withInitialGzipBytes <= INITIAL_JS_LIMIT_KIB * 1024,
    },
  };
}

function formatMainPageBundle(pageBundle: Step<MainPageBundle>): string {
  if (pageBundle.status !== 'done') return `Main page initial JavaScript: NOT MEASURED: ${pageBundle.message}`;
  const { gzipBytes, files, diagramChunk, diagramIncluded, diagramAddsFiles, withinLimit } = pageBundle.result;
  const diagram =
    diagramChunk === null
      ? `no ${DIAGRAM_CHUNK} chunk in this build`
      : diagramIncluded
        ? `the ${DIAGRAM_CHUNK} chunk is INCLUDED (imported statically)`
        : `${DIAGRAM_CHUNK} not included (lazy; it adds ${diagramAddsFiles} more file(s), see its row above)`;
  return (
    `Main page initial JavaScript (entry + ${MAIN_PAGE_CHUNK} and its static imports, ${files} files): ${kib(gzipBytes)} gzip; ` +
    `target ≤ ${INITIAL_JS_LIMIT_KIB} KiB: ${withinLimit ? 'PASS' : 'FAIL'}; ${diagram}`
  );
}

export function runBundle(): BundleOutcome {
  const bundle = measureBundle(CLIENT_DIR);
  say(formatBundleReport(bundle));
  const pageBundle = mainPageBundle(bundle);
  say(formatMainPageBundle(pageBundle));
  say();
  return { bundle, pageBundle };
}

export function bundleTargets({ bundle, pageBundle }: BundleOutcome): TargetResult[] {
  const targets: TargetResult[] = [];
  const bundleTarget = `≤ ${INITIAL_JS_LIMIT_KIB} KiB gzip`;
  if (bundle.status === 'measured') {
    targets.push({ name: 'initial JavaScript', target: bundleTarget, measured: kib(bundle.initialJsGzipBytes), status: bundle.withinLimit ? 'PASS' : 'FAIL' });
  } else {
    // No client build is a server-only tree; a build without a manifest cannot be checked, and fails.
    targets.push({ name: 'initial JavaScript', target: bundleTarget, measured: bundle.message, status: bundle.status === 'missing-client' ? 'SKIPPED' : 'FAIL' });
  }
  const name = 'main page initial JavaScript';
  const pageTarget = `≤ ${INITIAL_JS_LIMIT_KIB} KiB gzip, without ${DIAGRAM_CHUNK}`;
  if (pageBundle.status === 'done') {
    const { gzipBytes, withinLimit, diagramIncluded } = pageBundle.result;
    const measured = `${kib(gzipBytes)} (entry + ${MAIN_PAGE_CHUNK})${diagramIncluded ? `, ${DIAGRAM_CHUNK} included` : ''}`;
    targets.push({ name, target: pageTarget, measured, status: withinLimit && !diagramIncluded ? 'PASS' : 'FAIL' });
  } else {
    targets.push(unmeasured(name, pageTarget, pageBundle));
  }
  return targets;
}
