import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The variable that points the tests at a PostgreSQL server. Spelled in parts so that this file,
 * which a test imports, does not count as reaching a database itself.
 */
const MARKER = ['TEST', 'DATABASE', 'URL'].join('_');

/**
 * The test files under `include` whose result can depend on the database engine, relative to `root`.
 *
 * A test reaches PostgreSQL only through MARKER: src/server/test/test-database.ts reads it, and a
 * few tests read it to skip what one engine lacks. So a file counts when it, or any module it
 * imports, directly or through others, mentions MARKER. Following the imports rather than a naming
 * convention means a new test that opens a database through any helper is picked up without anyone
 * listing it. The rest (analyzer, parsers, pure units) gives the same result on either engine.
 */
export function databaseTestFiles(root: string, include: readonly string[] = ['src']): string[] {
  const modules = new Map<string, { mentions: boolean; imports: string[] }>();
  const moduleOf = (file: string) => {
    let known = modules.get(file);
    if (known === undefined) {
      const source = readFileSync(file, 'utf8');
      known = { mentions: source.includes(MARKER), imports: importedFiles(file, source) };
      modules.set(file, known);
    }
    return known;
  };
  const reaches = (file: string, seen: Set<string>): boolean => {
    if (seen.has(file)) return false;
    seen.add(file);
    const { mentions, imports } = moduleOf(file);
    return mentions || imports.some((imported) => reaches(imported, seen));
  };
  const tests = include.flatMap((dir) => testFilesUnder(path.join(root, dir)));
  return tests
    .filter((file) => reaches(file, new Set()))
    .map((file) => path.relative(root, file).split(path.sep).join('/'))
    .sort();
}

function testFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => path.join(dir, name));
}

// Static imports and re-exports, `import 'x'`, and `import('x')` with a literal specifier.
const SPECIFIER = /\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g;

function importedFiles(file: string, source: string): string[] {
  const files: string[] = [];
  for (const match of source.matchAll(SPECIFIER)) {
    const specifier = match[1] ?? match[2];
    if (specifier === undefined || !specifier.startsWith('.')) continue;
    const resolved = resolveSource(path.resolve(path.dirname(file), specifier));
    if (resolved !== undefined) files.push(resolved);
  }
  return files;
}

/** Sources import each other as `./x.js`; the file on disk is `x.ts` or `x.tsx`. */
function resolveSource(target: string): string | undefined {
  const stem = target.replace(/\.(js|jsx|ts|tsx)$/, '');
  const candidates = [`${stem}.ts`, `${stem}.tsx`, target, path.join(target, 'index.ts')];
  return candidates.find((candidate) => statSync(candidate, { throwIfNoEntry: false })?.isFile() === true);
}
