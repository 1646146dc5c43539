/**
 * Initial JavaScript of the client, in gzip bytes, from the Vite manifest of a build.
 *
 *   node --import tsx scripts/bundle-size.ts [clientDir]     (default dist/client)
 *
 * "Initial" is what the browser must fetch before the first page can run: the HTML entry's chunk
 * and every chunk it imports statically, recursively. Dynamic imports (lazy routes, the diagram
 * and chart libraries) are listed separately with their own size and what they add on top of the
 * initial set. Each file is gzipped on its own at level 9, as a server would send it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';

export const INITIAL_JS_LIMIT_KIB = 120;

const manifestChunkSchema = z.object({
  file: z.string(),
  name: z.string().optional(),
  src: z.string().optional(),
  isEntry: z.boolean().optional(),
  isDynamicEntry: z.boolean().optional(),
  imports: z.array(z.string()).optional(),
  dynamicImports: z.array(z.string()).optional(),
  css: z.array(z.string()).optional(),
});
const manifestSchema = z.record(z.string(), manifestChunkSchema);
type Manifest = z.infer<typeof manifestSchema>;

export interface FileSet {
  files: string[];
  rawBytes: number;
  gzipBytes: number;
}

export interface EntrySize {
  /** The manifest key, e.g. index.html. */
  key: string;
  js: FileSet;
  css: FileSet;
  withinLimit: boolean;
}

export interface LazyChunkSize {
  key: string;
  name: string;
  /** The chunk's own file. */
  fileGzipBytes: number;
  /** The chunk and its static imports, recursively: what it needs to run. */
  js: FileSet;
  /** gzip bytes it adds to a page that already loaded the initial JavaScript. */
  addedGzipBytes: number;
  /** Initial JavaScript plus this chunk: the figure of a page (a lazy route) that needs it at once. */
  withInitialGzipBytes: number;
}

export type BundleReport =
  | {
      status: 'measured';
      clientDir: string;
      manifestFile: string;
      limitKiB: number;
      entries: EntrySize[];
      lazyChunks: LazyChunkSize[];
      /** The largest entry's initial JavaScript: the figure the target is about. */
      initialJsGzipBytes: number;
      withinLimit: boolean;
    }
  | { status: 'missing-client' | 'missing-manifest' | 'invalid-manifest'; clientDir: string; message: string };

export const DEFAULT_CLIENT_DIR = fileURLToPath(new URL('../dist/client', import.meta.url));

export function measureBundle(clientDir: string = DEFAULT_CLIENT_DIR): BundleReport {
  if (!existsSync(clientDir)) {
    return { status: 'missing-client', clientDir, message: `${clientDir} does not exist: build the client first (npm run build)` };
  }
  const manifestFile = path.join(clientDir, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) {
    return {
      status: 'missing-manifest',
      clientDir,
      message: `${manifestFile} does not exist: set build.manifest to true in vite.config.ts and rebuild`,
    };
  }
  const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(manifestFile, 'utf8')));
  if (!parsed.success) {
    return { status: 'invalid-manifest', clientDir, message: `${manifestFile} is not a Vite manifest: ${parsed.error.message}` };
  }
  const manifest = parsed.data;
  const gzipOf = gzipMeter(clientDir);

  const entryKeys = Object.keys(manifest).filter((key) => manifest[key]?.isEntry === true);
  if (entryKeys.length === 0) {
    return { status: 'invalid-manifest', clientDir, message: `${manifestFile} has no entry chunk` };
  }

  const entries: EntrySize[] = entryKeys.map((key) => {
    const chunks = staticClosure(manifest, key);
    const js = fileSet(chunks.map((chunkKey) => chunkFile(manifest, chunkKey)), gzipOf);
    const css = fileSet(chunks.flatMap((chunkKey) => manifest[chunkKey]?.css ?? []), gzipOf);
    return { key, js, css, withinLimit: js.gzipBytes <= INITIAL_JS_LIMIT_KIB * 1024 };
  });
  const initialFiles = new Set(entries.flatMap((entry) => entry.js.files));
  const initialJsGzipBytes = Math.max(...entries.map((entry) => entry.js.gzipBytes));

  const lazyChunks: LazyChunkSize[] = Object.keys(manifest)
    .filter((key) => manifest[key]?.isDynamicEntry === true)
    .map((key) => {
      const file = chunkFile(manifest, key);
      const js = fileSet(staticClosure(manifest, key).map((chunkKey) => chunkFile(manifest, chunkKey)), gzipOf);
      const added = js.files.filter((name) => !initialFiles.has(name)).reduce((sum, name) => sum + gzipOf(name).gzipBytes, 0);
      return {
        key,
        name: manifest[key]?.name ?? key,
        fileGzipBytes: gzipOf(file).gzipBytes,
        js,
        addedGzipBytes: added,
        withInitialGzipBytes: initialJsGzipBytes + added,
      };
    })
    .sort((a, b) => b.addedGzipBytes - a.addedGzipBytes);

  return {
    status: 'measured',
    clientDir,
    manifestFile,
    limitKiB: INITIAL_JS_LIMIT_KIB,
    entries,
    lazyChunks,
    initialJsGzipBytes,
    withinLimit: entries.every((entry) => entry.withinLimit),
  };
}

/** The chunk and everything it imports statically, each once, in load order. */
function staticClosure(manifest: Manifest, key: string): string[] {
  const seen = new Set<string>();
  const visit = (current: string) => {
    if (seen.has(current)) return;
    seen.add(current);
    for (const imported of manifest[current]?.imports ?? []) visit(imported);
  };
  visit(key);
  return [...seen];
}

function chunkFile(manifest: Manifest, key: string): string {
  const chunk = manifest[key];
  if (chunk === undefined) throw new Error(`the manifest imports ${key} but has no entry for it`);
  return chunk.file;
}

function gzipMeter(clientDir: string): (file: string) => { rawBytes: number; gzipBytes: number } {
  const cache = new Map<string, { rawBytes: number; gzipBytes: number }>();
  return (file) => {
    let size = cache.get(file);
    if (size === undefined) {
      const content = readFileSync(path.join(clientDir, file));
      size = { rawBytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
      cache.set(file, size);
    }
    return size;
  };
}

function fileSet(files: readonly string[], gzipOf: (file: string) => { rawBytes: number; gzipBytes: number }): FileSet {
  const unique = [...new Set(files)];
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const file of unique) {
    const size = gzipOf(file);
    rawBytes += size.rawBytes;
    gzipBytes += size.gzipBytes;
  }
  return { files: unique, rawBytes, gzipBytes };
}

export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

export function formatBundleReport(report: BundleReport): string {
  if (report.status !== 'measured') return `Bundle size: NOT MEASURED: ${report.message}`;
  const lines: string[] = [];
  for (const entry of report.entries) {
    lines.push(
      `Initial JavaScript of ${entry.key}: ${kib(entry.js.gzipBytes)} gzip (${kib(entry.js.rawBytes)} raw, ${entry.js.files.length} file(s)); ` +
        `target ≤ ${report.limitKiB} KiB: ${entry.withinLimit ? 'PASS' : 'FAIL'}`,
    );
    lines.push(`Initial CSS of ${entry.key} (information): ${kib(entry.css.gzipBytes)} gzip (${kib(entry.css.rawBytes)} raw)`);
  }
  if (report.lazyChunks.length === 0) {
    lines.push('Lazy chunks (dynamic imports): none');
  } else {
    lines.push('Lazy chunks (dynamic imports), gzip:');
    const rows = [
      ['chunk', 'file', 'adds to initial', 'initial + chunk', 'source'],
      ...report.lazyChunks.map((chunk) => [chunk.name, kib(chunk.fileGzipBytes), `+${kib(chunk.addedGzipBytes)}`, kib(chunk.withInitialGzipBytes), chunk.key]),
    ];
    const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
    for (const row of rows) {
      lines.push(`  ${row.map((cell, column) => (column === 0 || column === row.length - 1 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd()}`);
    }
  }
  return lines.join('\n');
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  const clientDir = process.argv[2] === undefined ? DEFAULT_CLIENT_DIR : path.resolve(process.argv[2]);
  const report = measureBundle(clientDir);
  process.stdout.write(`${formatBundleReport(report)}\n`);
  process.exitCode = report.status === 'measured' && report.withinLimit ? 0 : 1;
}
