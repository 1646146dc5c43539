import type { Kysely } from 'kysely';
import { DECISION_LABELS } from '../../../common/api/decisions.js';
import { SUGGESTION_STATUSES, SUGGESTION_STATUS_LABELS, type SuggestionReviewStatus } from '../../../common/api/suggestions.js';
import type { ExportCsvKind } from '../../../common/api/export.js';
import type { Database } from '../../db/schema.js';
import { commentBatch, currentDecisions, latestOutput, listedSuggestions, qaMemberIds, type BatchEnd, type ExportComment } from './repo.js';

/**
 * The review as a document to hand over: Markdown and the printable HTML report (html.ts), both
 * rendered from one walk of the review (per component its description, decision, latest AI summary
 * and comments; then suggestions by status, actions and open conflicts), and CSV (comments,
 * suggestions or actions). Written as it is read, a batch of comments at a time, so a review of any
 * size streams in bounded memory. Nothing of a session, a secret or the QA member.
 */

export interface ReviewedComponent {
  id: string;
  title: string;
  description: string;
}

type CsvKind = ExportCsvKind;

/** Comments read per query: about 1 MB of text a batch. */
const BATCH = 1_000;

export const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
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

type CurrentDecision = Awaited<ReturnType<typeof currentDecisions>>[number];
type ListedSuggestion = Awaited<ReturnType<typeof listedSuggestions>>[number] & { where: string[] };

/**
 * The review as it reads, in order: each format renders these parts, so the Markdown and the
 * printable report say the same things from one walk of the data. Comments come a batch at a time.
 */
export type ReportPart =
  | { kind: 'review'; exportedAt: number; components: number; decided: number; actions: number; actionsDone: number }
  | { kind: 'component'; component: ReviewedComponent; decision: CurrentDecision | undefined; summary: { text: string; madeAt: number } | undefined }
  /** A batch of a component's open or resolved comments; `first` opens that list. */
  | { kind: 'comments'; resolved: boolean; first: boolean; comments: ExportComment[] }
  /** The end of a component's open or resolved comments, with how many there were. */
  | { kind: 'commentsEnd'; resolved: boolean; count: number }
  | { kind: 'componentEnd' }
  | { kind: 'suggestions'; groups: Array<{ status: SuggestionReviewStatus; suggestions: ListedSuggestion[] }> }
  | { kind: 'actions'; actions: ListedSuggestion[] }
  | { kind: 'conflicts'; conflicts: Array<{ topic: string; description: string }> };

/** The report's opening line, the same in every format. */
export function overviewLine(part: Extract<ReportPart, { kind: 'review' }>): string {
  return `Exported ${new Date(part.exportedAt).toISOString().replace('T', ' ').slice(0, 16)} UTC. ${part.decided} of ${part.components} components decided; ${part.actions} actions, ${part.actionsDone} done.`;
}

export async function* reportParts(db: Kysely<Database>, components: readonly ReviewedComponent[], now: number): AsyncGenerator<ReportPart> {
  const leftOut = await qaMemberIds(db);
  const decisions = new Map((await currentDecisions(db)).map((row) => [row.component_id, row]));
  const titleOf = new Map(components.map((component) => [component.id, component.title]));
  const suggestions = (await listedSuggestions(db)).map((suggestion) => ({ ...suggestion, where: stringsOf(suggestion.components).map((id) => titleOf.get(id) ?? id) }));
  const actions = suggestions.filter((suggestion) => ACTION_STATUSES.has(suggestion.review_status));
  yield {
    kind: 'review',
    exportedAt: now,
    components: components.length,
    decided: components.filter((component) => decisions.has(component.id)).length,
    actions: actions.length,
    actionsDone: actions.filter((action) => action.review_status === 'done').length,
  };

  for (const component of components) {
    const stored = await latestOutput(db, 'summary', component.id);
    const understanding = stored === undefined ? undefined : field(stored.output, 'understanding');
    const summary = stored === undefined || understanding === undefined ? undefined : { text: understanding, madeAt: stored.created_at };
    yield { kind: 'component', component, decision: decisions.get(component.id), summary };

    // Open comments first, then the resolved ones, a batch at a time.
    for (const resolved of [false, true]) {
      let after: BatchEnd = { id: 0, createdAt: -1 };
      let count = 0;
      for (;;) {
        const batch = await commentBatch(db, { after, limit: BATCH, leftOut, componentId: component.id, resolved });
        const last = batch[batch.length - 1];
        if (last === undefined) break;
        after = { id: last.id, createdAt: last.created_at };
        yield { kind: 'comments', resolved, first: count === 0, comments: batch };
        count += batch.length;
      }
      yield { kind: 'commentsEnd', resolved, count };
    }
    yield { kind: 'componentEnd' };
  }

  yield {
    kind: 'suggestions',
    groups: SUGGESTION_STATUSES.map((status) => ({ status, suggestions: suggestions.filter((suggestion) => suggestion.review_status === status) })).filter((group) => group.suggestions.length > 0),
  };
  yield { kind: 'actions', actions };
  const narrative = await latestOutput(db, 'narrative', 'team');
  yield { kind: 'conflicts', conflicts: narrative === undefined ? [] : conflictsOf(narrative.output) };
}

/** Writes each part as it is read; a part a format has nothing to say for writes nothing. */
export async function* rendered(parts: AsyncIterable<ReportPart>, render: (part: ReportPart) => string): AsyncGenerator<string> {
  for await (const part of parts) {
    const text = render(part);
    if (text !== '') yield text;
  }
}

/** What a comment is, when it was written and its votes: "comment, 2026-11-28, +2 / −0". */
export function commentFacts(comment: ExportComment): string {
  return `${comment.kind === 'proposal' ? 'change proposal' : 'comment'}, ${day(comment.created_at)}, +${comment.up} / −${comment.down}`;
}

function commentLine(comment: ExportComment): string {
  const head = `- **${markdownText(comment.member_name)}** (${commentFacts(comment)}): ${markdownText(comment.content)}`;
  if (comment.resolved_at === null) return head;
  const note = comment.resolution_note === null ? '' : `: ${markdownText(comment.resolution_note)}`;
  return `${head}\n  _Resolved by ${markdownText(comment.resolved_by_name ?? 'a former member')} on ${day(comment.resolved_at)}${note}_`;
}

function markdownPart(part: ReportPart): string {
  switch (part.kind) {
    case 'review':
      return `# Architecture review\n\n${overviewLine(part)}\n`;
    case 'component': {
      const { component, decision, summary } = part;
      const lines = [`\n## ${markdownText(component.title, '')}\n`, markdownText(component.description, ''), ''];
      lines.push(
        decision === undefined
          ? '**Decision:** none yet.'
          : `**Decision:** ${DECISION_LABELS[decision.outcome]}, by ${markdownText(decision.decided_by_name)} on ${day(decision.created_at)}. ${markdownText(decision.rationale, '')}`,
      );
      if (summary !== undefined) lines.push('', `**AI summary** (made ${day(summary.madeAt)}): ${markdownText(summary.text, '')}`);
      return `${lines.join('\n')}\n`;
    }
    case 'comments':
      return `${part.first ? `\n### ${part.resolved ? 'Resolved comments' : 'Open comments'}\n\n` : ''}${part.comments.map(commentLine).join('\n')}\n`;
    case 'commentsEnd':
      return !part.resolved && part.count === 0 ? '\n_No open comments._\n' : '';
    case 'componentEnd':
      return '';
    case 'suggestions':
      return `\n## Suggestions by status\n${part.groups
        .map(({ status, suggestions }) => {
          const lines = suggestions.map((suggestion) => {
            const why = status === 'declined' && suggestion.status_reason !== null ? ` Declined because: ${markdownText(suggestion.status_reason)}` : '';
            return `- ${markdownText(suggestion.suggestion)} (+${suggestion.up} / −${suggestion.down}; ${markdownText(suggestion.where.join(', '))}).${why}`;
          });
          return `\n### ${SUGGESTION_STATUS_LABELS[status]} (${suggestions.length})\n\n${lines.join('\n')}\n`;
        })
        .join('')}`;
    case 'actions':
      return `\n## Actions\n\n${
        part.actions.length === 0
          ? '_No actions yet: an action is an accepted suggestion._\n'
          : `| Action | Owner | Due | Status |\n|---|---|---|---|\n${part.actions
              .map((action) => `| ${markdownText(action.suggestion).replace(/\|/g, '\\|').replace(/\n\s*/g, ' ')} | ${action.owner_name === null ? 'nobody yet' : markdownText(action.owner_name)} | ${action.due_date ?? ''} | ${SUGGESTION_STATUS_LABELS[action.review_status]} |`)
              .join('\n')}\n`
      }`;
    case 'conflicts':
      return `\n## Open conflicts\n\n${part.conflicts.length === 0 ? '_None found in the latest team narrative._' : part.conflicts.map((conflict) => `- **${markdownText(conflict.topic)}**: ${markdownText(conflict.description)}`).join('\n')}\n`;
  }
}

export function markdownExport(db: Kysely<Database>, components: readonly ReviewedComponent[], now = Date.now()): AsyncGenerator<string> {
  return rendered(reportParts(db, components, now), markdownPart);
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
