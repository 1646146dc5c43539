import type { Kysely } from 'kysely';
import { DECISION_LABELS } from '../../../common/api/decisions.js';
import { SUGGESTION_STATUSES, SUGGESTION_STATUS_LABELS, type SuggestionReviewStatus } from '../../../common/api/suggestions.js';
import type { ExportCsvKind } from '../../../common/api/export.js';
import type { Database } from '../../db/schema.js';
import { commentBatch, currentDecisions, latestOutput, listedSuggestions, qaMemberIds, type BatchEnd, type ExportComment } from './repo.js';

/**
 * The review as a document to hand over: Markdown (per component its description, decision,
 * latest AI summary and comments; then suggestions by status, actions and open conflicts) and CSV
 * (comments, suggestions or actions). Written as it is read, a batch of comments at a time, so a
 * review of any size streams in bounded memory. Nothing of a session, a secret or the QA member.
 */

export interface ReviewedComponent {
  id: string;
  title: string;
  description: string;
}

type CsvKind = ExportCsvKind;

/** Comments read per query: about 1 MB of text a batch. */
const BATCH = 1_000;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const ACTION_STATUSES: ReadonlySet<SuggestionReviewStatus> = new Set(['accepted', 'in_progress', 'done']);

/** A member's text in Markdown: no raw HTML, and each line of it kept inside its list item. */
function markdownText(text: string, indent = '  '): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .join(`\n${indent}`);
}

const stringsOf = (json: string): string[] => {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
};

/** A stored output's field, when the output is JSON with that field as a string. */
function field(json: string, name: string): string | undefined {
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null) return undefined;
    const found: unknown = (value as Record<string, unknown>)[name];
    return typeof found === 'string' ? found : undefined;
  } catch {
    return undefined;
  }
}

function conflictsOf(json: string): Array<{ topic: string; description: string }> {
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null) return [];
    const list: unknown = (value as Record<string, unknown>).conflicts;
    if (!Array.isArray(list)) return [];
    return list.flatMap((item: unknown) => {
      if (typeof item !== 'object' || item === null) return [];
      const { topic, description } = item as Record<string, unknown>;
      return typeof topic === 'string' && typeof description === 'string' ? [{ topic, description }] : [];
    });
  } catch {
    return [];
  }
}

function commentLine(comment: ExportComment): string {
  const what = comment.kind === 'proposal' ? 'change proposal' : 'comment';
  const head = `- **${markdownText(comment.member_name)}** (${what}, ${day(comment.created_at)}, +${comment.up} / −${comment.down}): ${markdownText(comment.content)}`;
  if (comment.resolved_at === null) return head;
  const note = comment.resolution_note === null ? '' : `: ${markdownText(comment.resolution_note)}`;
  return `${head}\n  _Resolved by ${markdownText(comment.resolved_by_name ?? 'a former member')} on ${day(comment.resolved_at)}${note}_`;
}

export async function* markdownExport(db: Kysely<Database>, components: readonly ReviewedComponent[], now = Date.now()): AsyncGenerator<string> {
  const leftOut = await qaMemberIds(db);
  const decisions = new Map((await currentDecisions(db)).map((row) => [row.component_id, row]));
  const suggestions = await listedSuggestions(db);
  const titleOf = new Map(components.map((component) => [component.id, component.title]));
  const actions = suggestions.filter((suggestion) => ACTION_STATUSES.has(suggestion.review_status));
  yield `# Architecture review\n\nExported ${new Date(now).toISOString().replace('T', ' ').slice(0, 16)} UTC. ${components.filter((component) => decisions.has(component.id)).length} of ${components.length} components decided; ${actions.length} actions, ${actions.filter((action) => action.review_status === 'done').length} done.\n`;

  for (const component of components) {
    const decision = decisions.get(component.id);
    const lines = [`\n## ${markdownText(component.title, '')}\n`, markdownText(component.description, ''), ''];
    lines.push(
      decision === undefined
        ? '**Decision:** none yet.'
        : `**Decision:** ${DECISION_LABELS[decision.outcome]}, by ${markdownText(decision.decided_by_name)} on ${day(decision.created_at)}. ${markdownText(decision.rationale, '')}`,
    );
    const summary = await latestOutput(db, 'summary', component.id);
    const understanding = summary === undefined ? undefined : field(summary.output, 'understanding');
    if (summary !== undefined && understanding !== undefined) lines.push('', `**AI summary** (made ${day(summary.created_at)}): ${markdownText(understanding, '')}`);
    yield `${lines.join('\n')}\n`;

    // Open comments first, then the resolved ones, a batch at a time.
    for (const resolved of [false, true]) {
      let after: BatchEnd = { id: 0, createdAt: -1 };
      let wroteHeading = false;
      for (;;) {
        const batch = await commentBatch(db, { after, limit: BATCH, leftOut, componentId: component.id, resolved });
        const last = batch[batch.length - 1];
        if (last === undefined) break;
        after = { id: last.id, createdAt: last.created_at };
        const heading = wroteHeading ? '' : `\n### ${resolved ? 'Resolved comments' : 'Open comments'}\n\n`;
        wroteHeading = true;
        yield `${heading}${batch.map(commentLine).join('\n')}\n`;
      }
      if (!wroteHeading && !resolved) yield '\n_No open comments._\n';
    }
  }

  yield '\n## Suggestions by status\n';
  for (const status of SUGGESTION_STATUSES) {
    const atStatus = suggestions.filter((suggestion) => suggestion.review_status === status);
    if (atStatus.length === 0) continue;
    yield `\n### ${SUGGESTION_STATUS_LABELS[status]} (${atStatus.length})\n\n${atStatus
      .map((suggestion) => {
        const where = stringsOf(suggestion.components).map((id) => titleOf.get(id) ?? id).join(', ');
        const why = status === 'declined' && suggestion.status_reason !== null ? ` Declined because: ${markdownText(suggestion.status_reason)}` : '';
        return `- ${markdownText(suggestion.suggestion)} (+${suggestion.up} / −${suggestion.down}; ${markdownText(where)}).${why}`;
      })
      .join('\n')}\n`;
  }

  yield '\n## Actions\n\n';
  yield actions.length === 0
    ? '_No actions yet: an action is an accepted suggestion._\n'
    : `| Action | Owner | Due | Status |\n|---|---|---|---|\n${actions
        .map((action) => `| ${markdownText(action.suggestion).replace(/\|/g, '\\|').replace(/\n\s*/g, ' ')} | ${action.owner_name ?? 'nobody yet'} | ${action.due_date ?? ''} | ${SUGGESTION_STATUS_LABELS[action.review_status]} |`)
        .join('\n')}\n`;

  const narrative = await latestOutput(db, 'narrative', 'team');
  const conflicts = narrative === undefined ? [] : conflictsOf(narrative.output);
  yield `\n## Open conflicts\n\n${conflicts.length === 0 ? '_None found in the latest team narrative._' : conflicts.map((conflict) => `- **${markdownText(conflict.topic)}**: ${markdownText(conflict.description)}`).join('\n')}\n`;
}

/**
 * One CSV cell: quoted when it holds a comma, quote or line break; a cell that a spreadsheet would
 * read as a formula (=, +, -, @) starts with an apostrophe, so a comment can never run as one.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvRow = (cells: ReadonlyArray<string | number | null>) => `${cells.map(csvCell).join(',')}\r\n`;

export async function* csvExport(db: Kysely<Database>, kind: CsvKind, components: readonly ReviewedComponent[]): AsyncGenerator<string> {
  const titleOf = new Map(components.map((component) => [component.id, component.title]));
  if (kind === 'comments') {
    yield csvRow(['id', 'component_id', 'component', 'kind', 'author', 'created_at', 'status', 'resolved_by', 'resolution_note', 'up_votes', 'down_votes', 'text']);
    const leftOut = await qaMemberIds(db);
    let after: BatchEnd = { id: 0, createdAt: -1 };
    for (;;) {
      const batch = await commentBatch(db, { after, limit: BATCH, leftOut });
      const last = batch[batch.length - 1];
      if (last === undefined) return;
      after = { id: last.id, createdAt: last.created_at };
      yield batch
        .map((comment) =>
          csvRow([
            comment.id,
            comment.component_id,
            titleOf.get(comment.component_id) ?? comment.component_id,
            comment.kind,
            comment.member_name,
            new Date(comment.created_at).toISOString(),
            comment.resolved_at === null ? 'open' : 'resolved',
            comment.resolved_by_name,
            comment.resolution_note,
            comment.up,
            comment.down,
            comment.content,
          ]),
        )
        .join('');
    }
  }
  const suggestions = await listedSuggestions(db);
  const where = (json: string) => stringsOf(json).map((id) => titleOf.get(id) ?? id).join('; ');
  if (kind === 'suggestions') {
    yield csvRow(['id', 'suggestion', 'components', 'status', 'status_reason', 'up_votes', 'down_votes', 'owner', 'due_date']);
    for (const row of suggestions) yield csvRow([row.id, row.suggestion, where(row.components), row.review_status, row.status_reason, row.up, row.down, row.owner_name, row.due_date]);
    return;
  }
  yield csvRow(['id', 'action', 'components', 'owner', 'due_date', 'status']);
  for (const row of suggestions.filter((suggestion) => ACTION_STATUSES.has(suggestion.review_status))) {
    yield csvRow([row.id, row.suggestion, where(row.components), row.owner_name, row.due_date, row.review_status]);
  }
}
