import type { CommentSummaryOutput, NarrativeOutput } from '../../common/contract/ai.js';

/** Keeps only ids the input had: a model may cite ids that do not exist. */
export function onlyKnown(ids: readonly number[], known: ReadonlySet<number>): number[] {
  return [...new Set(ids.filter((id) => known.has(id)))];
}

/** A comment summary that cites only the input's comments, with one source list per key theme, in order. */
export function summaryWithKnownSources(output: CommentSummaryOutput, known: ReadonlySet<number>): CommentSummaryOutput {
  return {
    ...output,
    sources: {
      keyThemes: output.keyThemes.map((_theme, index) => onlyKnown(output.sources.keyThemes[index] ?? [], known)),
      contentChanges: onlyKnown(output.sources.contentChanges, known),
      structuralChanges: onlyKnown(output.sources.structuralChanges, known),
    },
  };
}

/** A team narrative that cites only the input's suggestions. */
export function narrativeWithKnownSources(output: NarrativeOutput, known: ReadonlySet<number>): NarrativeOutput {
  return {
    ...output,
    keyThemes: output.keyThemes.map((theme) => ({ ...theme, sources: onlyKnown(theme.sources, known) })),
    actionItems: output.actionItems.map((item) => ({ ...item, sources: onlyKnown(item.sources, known) })),
    conflicts: output.conflicts.map((conflict) => ({ ...conflict, sources: onlyKnown(conflict.sources, known) })),
  };
}
