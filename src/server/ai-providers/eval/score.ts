import type { PreparedSet, SetOutputs } from './run-set.js';

/**
 * How far the AI outputs of one labelled set agree with what a careful reader found. Every figure
 * is computed from the comment ids the outputs cite, so a wording cannot score by luck; the
 * disagreement check alone reads the summary's text.
 */

/** Words with which a summary says the team does not agree. */
const DISAGREEMENT = /\b(disagree\w*|split|divided|differ\w*|oppos\w*|contest\w*|debate\w*|conflict\w*|no consensus|not agree|two camps|trade-?off)\b/i;
/** Words with which it says the opposite. */
const FALSE_AGREEMENT = /\b(mostly agree\w*|broadly agree\w*|largely agree\w*|the team agrees|consensus is)\b/i;

/** The summary of a component with an unresolved disagreement must not be this sure of itself. */
export const UNRESOLVED_CONFIDENCE_CEILING = 0.75;

/** What the analyzer must reach on a review it has never seen (shares; false conflicts a set). */
export const TARGETS = { themeRecall: 0.75, themePrecision: 0.85, disagreementShare: 0.8, conflictShare: 0.8, falseConflictsPerSet: 1, actionRecall: 0.8 } as const;

/**
 * The threshold test's floors on the development sets: the targets less this. It catches a change
 * that loses ground, without holding today's figures (a ratchet makes every later change fit the
 * sets it was tuned on).
 */
export const FLOOR_SLACK = 0.05;

export interface Ratio {
  hit: number;
  of: number;
}

export interface SetScore {
  name: string;
  themeRecall: Ratio;
  themePrecision: Ratio;
  /** Components with an unresolved disagreement whose summary states it. */
  disagreementSurfaced: Ratio;
  /** Summaries that state a disagreement where the readers found none. */
  falseDisagreements: number;
  /** Labelled conflicts a narrative conflict cites both sides of. */
  conflictsBothSides: Ratio;
  /** Narrative conflicts that match no labelled conflict. */
  falseConflicts: number;
  actionRecall: Ratio;
  /** Citations of off-topic or injection comments, anywhere. */
  hygieneViolations: string[];
  /** Confidences outside [0, 1], or above the ceiling for a summary of a split component. */
  confidenceViolations: string[];
  /** Real comments (neither off-topic nor written to the tool) a summary set aside: none may be. */
  realSetAside: string[];
}

const ratio = (hit: number, of: number): Ratio => ({ hit, of });

export function share({ hit, of }: Ratio): number {
  return of === 0 ? 1 : hit / of;
}

function overlap(a: readonly string[], b: ReadonlySet<string>): number {
  return a.filter((key) => b.has(key)).length;
}

/**
 * An output theme stands for a labelled theme when more than half of what it cites is about that
 * theme, and it cites at least two of the theme's comments (or its only one).
 */
function themeMatches(cited: readonly string[], labelled: readonly string[]): boolean {
  if (cited.length === 0) return false;
  const hits = overlap(cited, new Set(labelled));
  return hits * 2 > cited.length && hits >= Math.min(2, labelled.length);
}

export function scoreSet(prepared: PreparedSet, outputs: SetOutputs): SetScore {
  const keysOf = (ids: readonly number[]) => ids.map((id) => prepared.keyOf.get(id)).filter((key) => key !== undefined);
  const commentsOfSuggestions = (ids: readonly number[]) => keysOf(ids.flatMap((id) => outputs.suggestionSources.get(id) ?? []));

  let themesFound = 0;
  let themesLabelled = 0;
  let outputThemesMatching = 0;
  let outputThemes = 0;
  let splitSurfaced = 0;
  let splitComponents = 0;
  let falseDisagreements = 0;
  let actionsFound = 0;
  let actionsLabelled = 0;
  const hygieneViolations: string[] = [];
  const confidenceViolations: string[] = [];
  const realSetAside: string[] = [];
  const forbidden = new Map<string, string>();

  const suggestionKeys = outputs.suggestions.suggestions.map((suggestion) => keysOf(suggestion.sources));

  for (const component of prepared.set.components) {
    for (const key of component.offTopic) forbidden.set(key, `${component.id}: off-topic ${key}`);
    for (const key of component.injection) forbidden.set(key, `${component.id}: injection ${key}`);
    const summary = outputs.summaries.get(component.id);
    if (summary === undefined) continue;

    const outputThemeKeys = summary.sources.keyThemes.map((ids) => keysOf(ids));
    themesLabelled += component.themes.length;
    themesFound += component.themes.filter((theme) => outputThemeKeys.some((cited) => themeMatches(cited, theme.comments))).length;
    outputThemes += outputThemeKeys.length;
    outputThemesMatching += outputThemeKeys.filter((cited) => component.themes.some((theme) => themeMatches(cited, theme.comments))).length;

    const unresolved = component.conflicts.some((conflict) => conflict.unresolved);
    const text = [summary.understanding, summary.contentChanges, summary.structuralChanges, ...summary.keyThemes].join(' ');
    if (component.conflicts.length === 0 && DISAGREEMENT.test(text)) falseDisagreements += 1;
    if (unresolved) {
      splitComponents += 1;
      if (DISAGREEMENT.test(text) && !FALSE_AGREEMENT.test(text)) splitSurfaced += 1;
      if (summary.confidence > UNRESOLVED_CONFIDENCE_CEILING) {
        confidenceViolations.push(`${component.id}: summary confidence ${summary.confidence.toFixed(2)} with an unresolved disagreement`);
      }
    }
    if (summary.confidence < 0 || summary.confidence > 1) confidenceViolations.push(`${component.id}: summary confidence ${summary.confidence}`);

    actionsLabelled += component.actions.length;
    const actionCites = [...suggestionKeys, ...outputs.narrative.actionItems.map((item) => commentsOfSuggestions(item.sources))];
    actionsFound += component.actions.filter((action) => actionCites.some((cited) => overlap(cited, new Set(action.comments)) > 0)).length;

    const labelledAside = new Set([...component.offTopic, ...component.injection]);
    for (const key of keysOf(summary.setAside.map((item) => item.id))) if (!labelledAside.has(key)) realSetAside.push(`${component.id}: ${key}`);

    const summaryCites = [...outputThemeKeys.flat(), ...keysOf(summary.sources.contentChanges), ...keysOf(summary.sources.structuralChanges)];
    for (const key of summaryCites) {
      const why = forbidden.get(key);
      if (why !== undefined) hygieneViolations.push(`summary of ${why}`);
    }
  }

  for (const [index, cited] of suggestionKeys.entries()) {
    for (const key of cited) {
      const why = forbidden.get(key);
      if (why !== undefined) hygieneViolations.push(`suggestion ${index + 1} cites ${why}`);
    }
  }

  const labelledConflicts = prepared.set.components.flatMap((component) => component.conflicts);
  const narrativeConflicts = outputs.narrative.conflicts.map((conflict) => commentsOfSuggestions(conflict.sources));
  const bothSides = (cited: readonly string[], conflict: (typeof labelledConflicts)[number]) =>
    overlap(cited, new Set(conflict.sideA)) > 0 && overlap(cited, new Set(conflict.sideB)) > 0;
  const conflictsFound = labelledConflicts.filter((conflict) => narrativeConflicts.some((cited) => bothSides(cited, conflict))).length;
  const falseConflicts = narrativeConflicts.filter((cited) => !labelledConflicts.some((conflict) => bothSides(cited, conflict))).length;
  if (outputs.narrative.confidence < 0 || outputs.narrative.confidence > 1) confidenceViolations.push(`narrative confidence ${outputs.narrative.confidence}`);

  return {
    name: prepared.set.name,
    themeRecall: ratio(themesFound, themesLabelled),
    themePrecision: ratio(outputThemesMatching, outputThemes),
    disagreementSurfaced: ratio(splitSurfaced, splitComponents),
    falseDisagreements,
    conflictsBothSides: ratio(conflictsFound, labelledConflicts.length),
    falseConflicts,
    actionRecall: ratio(actionsFound, actionsLabelled),
    hygieneViolations,
    confidenceViolations,
    realSetAside,
  };
}

/** The sums over several sets. */
export function totalScore(scores: readonly SetScore[]): SetScore {
  const sum = (pick: (score: SetScore) => Ratio) => ratio(scores.reduce((total, score) => total + pick(score).hit, 0), scores.reduce((total, score) => total + pick(score).of, 0));
  return {
    name: 'all sets',
    themeRecall: sum((score) => score.themeRecall),
    themePrecision: sum((score) => score.themePrecision),
    disagreementSurfaced: sum((score) => score.disagreementSurfaced),
    falseDisagreements: scores.reduce((total, score) => total + score.falseDisagreements, 0),
    conflictsBothSides: sum((score) => score.conflictsBothSides),
    falseConflicts: scores.reduce((total, score) => total + score.falseConflicts, 0),
    actionRecall: sum((score) => score.actionRecall),
    hygieneViolations: scores.flatMap((score) => score.hygieneViolations.map((violation) => `${score.name}: ${violation}`)),
    confidenceViolations: scores.flatMap((score) => score.confidenceViolations.map((violation) => `${score.name}: ${violation}`)),
    realSetAside: scores.flatMap((score) => score.realSetAside.map((key) => `${score.name}: ${key}`)),
  };
}
