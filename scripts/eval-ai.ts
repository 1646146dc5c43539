/**
 * Scores the built-in AI analyzer on the review sets of src/server/ai-providers/eval:
 * theme recall and precision, disagreements surfaced, conflicts found with both sides, action
 * recall, hygiene (no off-topic or injection comment cited) and confidence sanity.
 *
 *   npm run eval:ai            a table per set and in all, for the development sets (labelled, and
 *                              written apart; both read and tuned on), then the targets; exit 1 when one is missed
 *   npm run eval:ai -- --json  the same figures as JSON
 *   npm run eval:ai -- --sealed  the sealed sets alone (sealed/README.md), by the shipped word models,
 *                              which never saw them; figures only, never a comment's text
 */
import type { AiProvider } from '../src/server/ai-providers/provider.js';
import type { LabelledSet } from '../src/server/ai-providers/eval/labelled-set.js';
import { createLocalProvider } from '../src/server/ai-providers/local/local-provider.js';
import { guardedProvider } from '../src/server/ai-providers/output-guard.js';
import { loadReader } from '../src/server/ai-providers/local/wink.js';
import { prepareSet, runSet } from '../src/server/ai-providers/eval/run-set.js';
import { share, scoreSet, TARGETS, totalScore, UNRESOLVED_CONFIDENCE_CEILING, type Ratio, type SetScore } from '../src/server/ai-providers/eval/score.js';
import { LABELLED_DIR, loadLabelledSets, SEALED_DIR, WRITTEN_APART_DIR } from '../src/server/ai-providers/eval/sets.js';
import { wordModelsWithout } from '../src/server/ai-providers/eval/word-model-training.js';

const fraction = (value: Ratio) => `${value.hit}/${value.of} (${share(value).toFixed(2)})`;

function row(score: SetScore): string[] {
  return [
    score.name,
    fraction(score.themeRecall),
    fraction(score.themePrecision),
    fraction(score.disagreementSurfaced),
    fraction(score.conflictsBothSides),
    String(score.falseConflicts),
    String(score.falseDisagreements),
    fraction(score.actionRecall),
    String(score.hygieneViolations.length),
    String(score.confidenceViolations.length),
    String(score.realSetAside.length),
  ];
}

function table(rows: string[][]): string {
  const header = ['set', 'theme recall', 'theme precision', 'disagreement', 'conflicts, both sides', 'false', 'false splits', 'action recall', 'hygiene', 'confidence', 'real set aside'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((cells) => (cells[column] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

const labelled = loadLabelledSets(LABELLED_DIR);
const writtenApart = loadLabelledSets(WRITTEN_APART_DIR);
const provider = guardedProvider(createLocalProvider());
const stem = (await loadReader()).stem;

/**
 * The word models learn from every development set, so the second group is read by models that saw
 * it. The third reads each set written apart with models trained on all the other sets; its rules
 * were still tuned on it, so this too is a development figure.
 */
const leftOut = (set: LabelledSet): AiProvider => guardedProvider(createLocalProvider({ wordModels: wordModelsWithout(set, [...labelled, ...writtenApart], stem) }));

const sealed = process.argv.includes('--sealed');
if (sealed && process.argv.includes('--json')) {
  // The JSON carries each violation's text, which quotes the set.
  process.stderr.write('--sealed prints figures only; it does not combine with --json\n');
  process.exit(2);
}

/**
 * The development sets; or, with --sealed, only the sealed sets, which nothing else reads (the word models never learnt
 * from them, so the shipped ones read them at first sight).
 */
const groups: Array<{ name: string; sets: LabelledSet[]; providerFor: (set: LabelledSet) => AiProvider }> = sealed
  ? [{ name: 'sealed sets, at first sight', sets: loadLabelledSets(SEALED_DIR), providerFor: () => provider }]
  : [
      { name: 'development sets, labelled', sets: labelled, providerFor: () => provider },
      { name: 'development sets, written apart', sets: writtenApart, providerFor: () => provider },
      { name: 'development sets written apart, each read by word models trained without it', sets: writtenApart, providerFor: leftOut },
    ];

interface GroupResult {
  name: string;
  comments: number;
  scores: SetScore[];
  total: SetScore;
  checks: Array<{ name: string; pass: boolean }>;
}

const results: GroupResult[] = [];
for (const group of groups) {
  const scores: SetScore[] = [];
  for (const set of group.sets) {
    const prepared = prepareSet(set);
    scores.push(scoreSet(prepared, await runSet(group.providerFor(set), prepared)));
  }
  const total = totalScore(scores);
  const checks = [
    { name: `theme recall ≥ ${TARGETS.themeRecall}`, pass: share(total.themeRecall) >= TARGETS.themeRecall },
    { name: `theme precision ≥ ${TARGETS.themePrecision}`, pass: share(total.themePrecision) >= TARGETS.themePrecision },
    { name: 'disagreement surfaced in ≥ 4 of 5 split components', pass: share(total.disagreementSurfaced) >= TARGETS.disagreementShare },
    { name: 'conflicts with both sides in ≥ 4 of 5, at most 1 false a set', pass: share(total.conflictsBothSides) >= TARGETS.conflictShare && scores.every((score) => score.falseConflicts <= TARGETS.falseConflictsPerSet) },
    { name: `action recall ≥ ${TARGETS.actionRecall}`, pass: share(total.actionRecall) >= TARGETS.actionRecall },
    { name: 'no off-topic or injection comment cited', pass: total.hygieneViolations.length === 0 },
    { name: `confidence in [0, 1], ≤ ${UNRESOLVED_CONFIDENCE_CEILING} with an unresolved disagreement`, pass: total.confidenceViolations.length === 0 },
    { name: 'no real comment set aside', pass: total.realSetAside.length === 0 },
  ];
  const comments = group.sets.reduce((count, set) => count + set.components.reduce((sum, component) => sum + component.comments.length, 0), 0);
  results.push({ name: group.name, comments, scores, total, checks });
}

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
} else {
  const lines = results.flatMap((result) => [
    `The built-in analyzer on ${result.scores.length} ${result.name} (${result.comments} comments)`,
    '',
    table([...result.scores.map(row), row(result.total)]),
    '',
    // A sealed set's violations would quote it: reading them spends the set.
    ...(sealed ? [] : result.total.hygieneViolations.map((violation) => `hygiene: ${violation}`)),
    ...(sealed ? [] : result.total.confidenceViolations.map((violation) => `confidence: ${violation}`)),
    ...(sealed ? [] : result.total.realSetAside.map((key) => `set aside, yet real: ${key}`)),
    ...result.checks.map((check) => `${check.pass ? 'PASS' : 'FAIL'}  ${check.name}`),
    '',
  ]);
  process.stdout.write(`${lines.join('\n')}\n`);
}
process.exitCode = results.every((result) => result.checks.every((check) => check.pass)) ? 0 : 1;
