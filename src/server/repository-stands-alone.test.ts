import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands on its own: no comment, test name or document points at something a
 * reader of the repository cannot open (a tracker's issue numbers, documents that live elsewhere,
 * sections of a specification that is not in the repository). docs/product.md describes the
 * product, docs/architecture.md and docs/decisions/ the design; point there instead.
 */

const THIS_FILE = fileURLToPath(import.meta.url);
const REPO_ROOT = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: path.dirname(THIS_FILE), encoding: 'utf8' }).trim();

/** Case-sensitive on purpose: 'Specification' or 'inspect' in prose are fine. */
const OUTSIDE_REFERENCES: readonly RegExp[] = [
  /ARCHITECTURE\.md/,
  /DEVELOPERS\.md/,
  /STYLE\.md/,
  /PRODUCT-SPEC/,
  /[Ii]ssue #?[0-9]/,
  /[Ss]pec section/,
  /\(spec\b/,
  /the spec\b/,
  /[Ss]pec's/,
  /[Ss]pec:/,
  /per spec/,
  /by the spec/,
];

/**
 * A relative path into a `shared` folder reads, to someone who cloned the repository, as a pointer
 * outside it; the code both sides use lives in `src/common`, so no such path is ever right.
 */
const SHARED_PATH = /(?:\.\.\/)+shared\//;

/** `spec: RequestSpec = …`, `{ spec: value }` or `f(spec.body)` is a variable, not a specification. */
const SPEC_IDENTIFIER = /\bspec(?:\.[\w$]+|:\s*[\w$.]+(?:<[^>]*>)?(?:\[\])?\s*[=,);}])/g;

const SKIPPED_FILES = new Set(['package-lock.json', path.relative(REPO_ROOT, THIS_FILE).split(path.sep).join('/')]);

/** The hits of one file's text, as 'file:line: text'. `file` is relative to the repository root. */
function outsideReferences(file: string, text: string): string[] {
  const hits: string[] = [];
  text.split('\n').forEach((line, index) => {
    const prose = line.replace(SPEC_IDENTIFIER, '');
    const pointsOutside =
      OUTSIDE_REFERENCES.some((pattern) => pattern.test(prose)) || SHARED_PATH.test(line);
    if (pointsOutside) hits.push(`${file}:${index + 1}: ${line.trim()}`);
  });
  return hits;
}

function trackedTextFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return listed
    .split('\0')
    .filter((file) => file !== '' && !SKIPPED_FILES.has(file) && !file.split('/').includes('node_modules'))
    .filter((file) => existsSync(path.join(REPO_ROOT, file)));
}

describe('the repository stands on its own', () => {
  it('finds the references it is meant to find, and leaves in-repository paths and variables alone', () => {
    expect(outsideReferences('src/common/x.ts', "/** Spec section 3 'Comment vote'. */")).toHaveLength(1);
    // Assembled, so that this file holds no such name or path for other checks to find.
    const designDocument = ['ARCHITECTURE', 'md'].join('.');
    const outsideFolder = ['..', 'shared'].join('/');
    expect(outsideReferences('src/common/x.ts', `// ${designDocument} 4.7: names are disclosed`)).toHaveLength(1);
    expect(outsideReferences('e2e/x.test.ts', "// checks the spec's wording")).toHaveLength(1);
    expect(outsideReferences('docs/x.md', 'See issue #12.')).toHaveLength(1);
    expect(outsideReferences('docs/x.md', `See ${outsideFolder}/PRODUCT.md.`)).toHaveLength(1);
    expect(outsideReferences('src/server/modules/x/service.ts', `import { nameKey } from '../../${outsideFolder}/names.js';`)).toHaveLength(1);
    expect(outsideReferences('src/client/x.ts', " * listens (spec: teammates' comments")).toHaveLength(1);
    expect(outsideReferences('src/server/modules/x/service.ts', "import { nameKey } from '../../../common/names.js';")).toEqual([]);
    expect(outsideReferences('bench/lib/x.ts', "function probe(port: number, spec: RequestSpec = { method: 'GET' }) {")).toEqual([]);
    expect(outsideReferences('bench/lib/x.ts', 'request.end(spec.body);')).toEqual([]);
    expect(outsideReferences('docs/x.md', 'The specification is docs/product.md.')).toEqual([]);
  });

  it('has no tracked text file that points outside the repository', () => {
    const hits = trackedTextFiles().flatMap((file) => {
      const bytes = readFileSync(path.join(REPO_ROOT, file));
      // A NUL byte marks a binary file (an image, a font): nothing to read there.
      if (bytes.includes(0)) return [];
      return outsideReferences(file, bytes.toString('utf8'));
    });
    expect(hits).toEqual([]);
  });
});
