import { describe, expect, it } from 'vitest';
import type { AiProvider } from '../provider.js';
import { createLocalProvider } from '../local/local-provider.js';
import { guardedProvider } from '../output-guard.js';
import { loadReader } from '../local/wink.js';
import type { LabelledSet } from './labelled-set.js';
import { prepareSet, runSet } from './run-set.js';
import { FLOOR_SLACK, scoreSet, share, TARGETS, totalScore, type SetScore } from './score.js';
import { loadDevelopmentSets, WRITTEN_APART_DIR, loadLabelledSets } from './sets.js';
import { wordModelsWithout } from './word-model-training.js';

/**
 * The built-in analyzer on the development sets, as `npm run eval:ai` scores them. These sets were
 * read and tuned on, so the test holds floors below the targets (targets less FLOOR_SLACK), not
 * today's figures: it catches a change that loses ground without making the next rule fit them.
 * Hygiene and confidence have no slack: nothing off-topic or injected is ever cited.
 */

const provider = guardedProvider(createLocalProvider());

async function scoresOf(sets: readonly LabelledSet[], providerFor: (set: LabelledSet) => AiProvider = () => provider): Promise<{ sets: SetScore[]; total: SetScore }> {
  const scores: SetScore[] = [];
  for (const set of sets) {
    const prepared = prepareSet(set);
    scores.push(scoreSet(prepared, await runSet(providerFor(set), prepared)));
  }
  return { sets: scores, total: totalScore(scores) };
}

/**
 * Off-topic or injected comments cited: none is the target on a review never seen. On the sets
 * read by word models trained without them, an aside whose telling words no other set uses can
 * slip through; the floor allows one such comment in a thousand, and none in-sample.
 */
const FORBIDDEN_CITED_PER_COMMENT = 0.001;

function distinctCited(violations: readonly string[]): number {
  return new Set(violations.map((violation) => /^(\S+): .* (?:off-topic|injection) (\S+)$/.exec(violation)?.slice(1).join(' ') ?? violation)).size;
}

function holdsTheFloors(sets: readonly SetScore[], total: SetScore, comments: number, inSample: boolean): void {
  expect(share(total.themeRecall)).toBeGreaterThanOrEqual(TARGETS.themeRecall - FLOOR_SLACK);
  expect(share(total.themePrecision)).toBeGreaterThanOrEqual(TARGETS.themePrecision - FLOOR_SLACK);
  expect(share(total.disagreementSurfaced)).toBeGreaterThanOrEqual(TARGETS.disagreementShare - FLOOR_SLACK);
  expect(share(total.conflictsBothSides)).toBeGreaterThanOrEqual(TARGETS.conflictShare - FLOOR_SLACK);
  for (const set of sets) expect(set.falseConflicts, set.name).toBeLessThanOrEqual(TARGETS.falseConflictsPerSet + 1);
  expect(share(total.actionRecall)).toBeGreaterThanOrEqual(TARGETS.actionRecall - FLOOR_SLACK);
  if (inSample) expect(total.hygieneViolations).toEqual([]);
  else expect(distinctCited(total.hygieneViolations), total.hygieneViolations.join('\n')).toBeLessThanOrEqual(Math.floor(comments * FORBIDDEN_CITED_PER_COMMENT));
  expect(total.confidenceViolations).toEqual([]);
  expect(total.realSetAside).toEqual([]);
}

const commentsIn = (sets: readonly LabelledSet[]) => sets.reduce((sum, set) => sum + set.components.reduce((count, component) => count + component.comments.length, 0), 0);

/** Each test runs the analyzer over some 2,400 comments: about 15 s alone, several times that beside other test files on two cores. */
const SCORING_TIMEOUT_MS = 180_000;

describe('the analyzer on the development sets', () => {
  it('states the disagreements, sets both sides against each other, finds the requests and themes, cites nothing off-topic or addressed to it, sets no real comment aside, and doubts a split', async () => {
    const development = loadDevelopmentSets();
    const { sets, total } = await scoresOf(development);
    holdsTheFloors(sets, total, commentsIn(development), true);
  }, SCORING_TIMEOUT_MS);

  it('holds the floors on each set written apart when read by word models trained without it', async () => {
    const stem = (await loadReader()).stem;
    const all = loadDevelopmentSets();
    const writtenApart = loadLabelledSets(WRITTEN_APART_DIR);
    const { sets, total } = await scoresOf(writtenApart, (set) => guardedProvider(createLocalProvider({ wordModels: wordModelsWithout(set, all, stem) })));
    holdsTheFloors(sets, total, commentsIn(writtenApart), false);
  }, SCORING_TIMEOUT_MS);
});
