/**
 * Counts the hand-written language rules of the built-in analyzer: regular expressions that name
 * words (and the alternatives they hold) and word lists (and their entries), over the analyzer's product code
 * (src/server/ai-providers/local, tests and generated data left out). The README quotes its output;
 * a rule added has to be worth the count.
 *
 *   npm run count:rules            the totals and the count per file
 *   npm run count:rules -- <dir>   the same for another checkout's analyzer folder
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const dir = process.argv[2] ?? path.join(import.meta.dirname, '../src/server/ai-providers/local');

/** Properties of a rule that hold its tests' texts, not rules. */
const TEST_TEXTS = new Set(['examples', 'nearMisses']);

interface Count {
  patterns: number;
  alternatives: number;
  lists: number;
  entries: number;
}

/** Top-level and nested alternatives: unescaped bars, outside character classes, plus one. */
function alternativesOf(source: string): number {
  let bars = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i];
    if (char === '\\') i += 1;
    else if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (char === '|' && !inClass) bars += 1;
  }
  return bars + 1;
}

/**
 * A language rule names words; a pattern of punctuation, spaces and character classes ('\\s+',
 * '[.:]+$', '\\p{L}+') only cuts text up and is not counted. Escapes and Unicode properties are
 * removed first, so '\\bword' still counts and '\\p{Lu}' does not.
 */
function namesWords(source: string): boolean {
  return /[a-z]{2,}/i.test(source.replace(/\\[pP]\{[^}]*\}|\\./g, ' ').replace(/\$\{[^}]*\}/g, ' '));
}

function isStringRaw(node: ts.TaggedTemplateExpression): boolean {
  return node.tag.getText() === 'String.raw';
}

function insideTestTexts(node: ts.Node): boolean {
  // The source file's parent is undefined at run time, whatever the declared type says.
  for (let parent: ts.Node | undefined = node.parent; parent !== undefined; parent = parent.parent as ts.Node | undefined) {
    if (ts.isPropertyAssignment(parent) && TEST_TEXTS.has(parent.name.getText())) return true;
  }
  return false;
}

function count(file: string): Count {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const total: Count = { patterns: 0, alternatives: 0, lists: 0, entries: 0 };
  const visit = (node: ts.Node) => {
    if (ts.isRegularExpressionLiteral(node)) {
      const body = node.text.slice(1, node.text.lastIndexOf('/'));
      if (namesWords(body)) {
        total.patterns += 1;
        total.alternatives += alternativesOf(body);
      }
    } else if (ts.isTaggedTemplateExpression(node) && isStringRaw(node)) {
      const body = node.template.getText();
      if (namesWords(body)) {
        total.patterns += 1;
        total.alternatives += alternativesOf(body);
      }
    } else if (ts.isArrayLiteralExpression(node) && node.elements.length >= 3 && node.elements.every((element) => ts.isStringLiteral(element)) && !insideTestTexts(node)) {
      total.lists += 1;
      total.entries += node.elements.length;
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'split' &&
      node.arguments.length === 1 &&
      node.arguments[0]?.getText() === "' '"
    ) {
      // 'a b c'.split(' '), or ('a b ' + 'c d').split(' '): a word list written as one string.
      const words: string[] = [];
      const collect = (part: ts.Node) => {
        if (ts.isStringLiteral(part)) words.push(...part.text.split(' ').filter((word) => word !== ''));
        else if (ts.isParenthesizedExpression(part) || ts.isBinaryExpression(part)) ts.forEachChild(part, collect);
      };
      collect(node.expression.expression);
      if (words.length > 0) {
        total.lists += 1;
        total.entries += words.length;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return total;
}

const files = readdirSync(dir)
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  .sort();
const sum: Count = { patterns: 0, alternatives: 0, lists: 0, entries: 0 };
const rows: string[] = [];
for (const name of files) {
  const found = count(path.join(dir, name));
  if (found.patterns + found.lists === 0) continue;
  for (const key of Object.keys(sum) as Array<keyof Count>) sum[key] += found[key];
  rows.push(`${name.padEnd(22)} ${String(found.patterns).padStart(4)} patterns ${String(found.alternatives).padStart(5)} alternatives ${String(found.lists).padStart(3)} lists ${String(found.entries).padStart(5)} entries`);
}
process.stdout.write(`${rows.join('\n')}\n${'all'.padEnd(22)} ${String(sum.patterns).padStart(4)} patterns ${String(sum.alternatives).padStart(5)} alternatives ${String(sum.lists).padStart(3)} lists ${String(sum.entries).padStart(5)} entries\n`);
