import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { labelledSetSchema, type LabelledSet } from './labelled-set.js';

/** The labelled review sets kept in the repository (`sets/*.json`). */
export const SETS_DIR = fileURLToPath(new URL('./sets/', import.meta.url));
/** Sets written apart from the analyzer's development and never tuned on: how it does on reviews it has not seen. */
export const HOLDOUT_DIR = fileURLToPath(new URL('./holdout/', import.meta.url));
/** Sets written without sight of the analyzer, scored only by `npm run eval:ai -- --sealed` (see sealed/README.md). */
export const SEALED_DIR = fileURLToPath(new URL('./sealed/', import.meta.url));

/** Every set of a folder, checked against the schema; a bad file throws with its name. */
export function loadLabelledSets(dir: string = SETS_DIR): LabelledSet[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const parsed = labelledSetSchema.safeParse(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
      if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
      return parsed.data;
    });
}
