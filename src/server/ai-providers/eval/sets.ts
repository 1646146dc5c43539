import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { labelledSetSchema, type LabelledSet } from './labelled-set.js';

/**
 * Development sets: read and tuned against while the analyzer was built, so their scores measure
 * fit, not how it does on a review it has never seen (the sealed sets measure that).
 * `labelled/` were written for the analyzer; `written-apart/` by reviewers who had not seen it,
 * each scored once at first sight (the README keeps those figures) and tuned on afterwards.
 */
export const LABELLED_DIR = fileURLToPath(new URL('./development/labelled/', import.meta.url));
export const WRITTEN_APART_DIR = fileURLToPath(new URL('./development/written-apart/', import.meta.url));
/** Sets written without sight of the analyzer, scored only by `npm run eval:ai -- --sealed` (see sealed/README.md). */
export const SEALED_DIR = fileURLToPath(new URL('./sealed/', import.meta.url));

/** Every set of a folder, checked against the schema; a bad file throws with its name. */
export function loadLabelledSets(dir: string): LabelledSet[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const parsed = labelledSetSchema.safeParse(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
      if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
      return parsed.data;
    });
}

/** Every development set: the labelled ones, then those written apart. */
export function loadDevelopmentSets(): LabelledSet[] {
  return [...loadLabelledSets(LABELLED_DIR), ...loadLabelledSets(WRITTEN_APART_DIR)];
}
