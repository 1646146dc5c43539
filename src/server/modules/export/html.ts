import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DECISION_LABELS } from '../../../common/api/decisions.js';
import { SUGGESTION_STATUS_LABELS } from '../../../common/api/suggestions.js';
import type { Database } from '../../db/schema.js';
import { SECURITY_HEADERS } from '../../http/security-headers.js';
import { commentFacts, day, overviewLine, rendered, reportParts, type ReportPart, type ReviewedComponent } from './export.js';
import type { ExportComment } from './repo.js';

/**
 * The printable report: the review as one HTML document, read in the same walk and order as the
 * Markdown export, with a print stylesheet that makes a clean PDF from the browser's Print. No
 * script at all; every piece of member text is escaped; its only style is the inline sheet below,
 * which the page's own Content-Security-Policy allows by hash.
 */

/** Screen: a plain readable column. Print: black on white, A4 and Letter margins, no chrome. */
export const REPORT_STYLE = `
:root { color-scheme: light; }
html { background: #fff; color: #1a1a1a; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 46rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }
h1 { font-size: 2rem; line-height: 1.2; margin: 0 0 0.25rem; }
h2 { font-size: 1.4rem; line-height: 1.3; margin: 0 0 0.5rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 0.5rem; }
p { margin: 0 0 0.6rem; }
.print-hint { font-size: 0.875rem; color: #333; background: #f4f4f5; border: 1px solid #d4d4d8; border-radius: 4px; padding: 0.5rem 0.75rem; margin-bottom: 1.5rem; }
.overview { color: #3f3f46; }
.component, .part { margin-top: 2.5rem; padding-top: 1rem; border-top: 1px solid #d4d4d8; }
.description { color: #3f3f46; }
.decision .outcome { font-weight: 700; }
.rationale, .ai-summary { border-left: 3px solid #d4d4d8; padding-left: 0.75rem; }
.member-text { white-space: pre-line; overflow-wrap: anywhere; }
.meta, .resolution, .none { color: #52525b; font-size: 0.9rem; }
.none, .resolution { font-style: italic; }
ul { padding-left: 1.25rem; }
ul.comments { list-style: none; padding: 0; }
ul.comments > li { margin: 0 0 0.9rem; }
ul.comments > li > p { margin: 0 0 0.2rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.5rem; border-bottom: 1px solid #d4d4d8; }
th { border-bottom-width: 2px; }
td.member-text { width: 55%; }
@page { size: auto; margin: 18mm 16mm; }
@media print {
  html, body { background: #fff; color: #000; }
  body { font-size: 10.5pt; line-height: 1.4; }
  main { max-width: none; margin: 0; padding: 0; }
  .print-hint { display: none; }
  .overview, .description, .meta, .resolution, .none { color: #000; }
  .component, .part { margin-top: 1.5rem; border-top-color: #999; }
  .rationale, .ai-summary { border-left-color: #999; }
  th, td { border-bottom-color: #999; }
  h1, h2, h3 { break-after: avoid; page-break-after: avoid; }
  .component-head, li, tr, .ai-summary { break-inside: avoid; page-break-inside: avoid; }
  /* A component's head never ends a page: what follows it (its comments, or "none") comes along. */
  .component-head { break-after: avoid; page-break-after: avoid; }
  .part.starts-page { break-before: page; page-break-before: always; margin-top: 0; border-top: 0; }
  thead { display: table-header-group; }
  p { orphans: 3; widows: 3; }
  a { color: inherit; text-decoration: none; }
  a[href]::after { content: none; }
}
`;

const STYLE_SOURCE = `'sha256-${createHash('sha256').update(REPORT_STYLE, 'utf8').digest('base64')}'`;

/**
 * The app's policy for this page alone: its one style sheet allowed by hash in place of any inline
 * style, and no script. Every other directive stays as the app sends it.
 */
export function reportContentSecurityPolicy(appPolicy: string): string {
  return appPolicy
    .split(';')
    .map((directive) => {
      const name = directive.trim().split(/\s+/)[0];
      if (name === 'style-src') return `style-src ${STYLE_SOURCE}`;
      if (name === 'script-src') return "script-src 'none'";
      return directive;
    })
    .join(';');
}

export const REPORT_CONTENT_SECURITY_POLICY = reportContentSecurityPolicy(SECURITY_HEADERS['content-security-policy'] ?? '');

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML: the five characters that could open markup or leave an attribute, escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

function commentItem(comment: ExportComment): string {
  const note = comment.resolution_note === null ? '' : `: <span class="member-text">${escapeHtml(comment.resolution_note)}</span>`;
  const resolution =
    comment.resolved_at === null ? '' : `<p class="resolution">Resolved by ${escapeHtml(comment.resolved_by_name ?? 'a former member')} on ${day(comment.resolved_at)}${note}</p>`;
  return `<li data-comment="${comment.id}"><p class="meta"><strong class="author">${escapeHtml(comment.member_name)}</strong> (${commentFacts(comment)})</p><p class="member-text">${escapeHtml(comment.content)}</p>${resolution}</li>\n`;
}

function htmlPart(part: ReportPart): string {
  switch (part.kind) {
    case 'review':
      return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Architecture review ${day(part.exportedAt)}</title>
<link rel="icon" type="image/svg+xml" href="/biggy-logo.svg">
<style>${REPORT_STYLE}</style>
</head>
<body>
<main>
<header>
<p class="print-hint">Use your browser's Print (Ctrl+P) to save as PDF.</p>
<h1>Architecture review</h1>
<p class="overview">${escapeHtml(overviewLine(part))}</p>
</header>
`;
    case 'component': {
      const { component, decision, summary } = part;
      const id = escapeHtml(component.id);
      const decided =
        decision === undefined
          ? '<p class="decision" data-outcome="none"><strong>Decision:</strong> none yet.</p>'
          : `<p class="decision" data-outcome="${decision.outcome}"><strong>Decision:</strong> <span class="outcome">${DECISION_LABELS[decision.outcome]}</span>, by ${escapeHtml(decision.decided_by_name)} on ${day(decision.created_at)}.</p>\n<p class="rationale member-text">${escapeHtml(decision.rationale)}</p>`;
      const ai = summary === undefined ? '' : `<p class="ai-summary"><strong>AI summary</strong> (made ${day(summary.madeAt)}): <span class="member-text">${escapeHtml(summary.text)}</span></p>\n`;
      return `<section class="component" data-component="${id}" aria-labelledby="component-${id}">
<div class="component-head">
<h2 id="component-${id}">${escapeHtml(component.title)}</h2>
<p class="description">${escapeHtml(component.description)}</p>
${decided}
</div>
${ai}`;
    }
    case 'comments':
      return `${part.first ? `<h3>${part.resolved ? 'Resolved comments' : 'Open comments'}</h3>\n<ul class="comments">\n` : ''}${part.comments.map(commentItem).join('')}`;
    case 'commentsEnd':
      if (part.count > 0) return '</ul>\n';
      return part.resolved ? '' : '<p class="none">No open comments.</p>\n';
    case 'componentEnd':
      return '</section>\n';
    case 'suggestions': {
      const groups = part.groups.map(({ status, suggestions }) => {
        const items = suggestions.map((suggestion) => {
          const why = status === 'declined' && suggestion.status_reason !== null ? ` Declined because: <span class="member-text">${escapeHtml(suggestion.status_reason)}</span>` : '';
          return `<li><span class="member-text">${escapeHtml(suggestion.suggestion)}</span> <span class="meta">(+${suggestion.up} / −${suggestion.down}; ${escapeHtml(suggestion.where.join(', '))})</span>${why}</li>`;
        });
        return `<h3>${SUGGESTION_STATUS_LABELS[status]} (${suggestions.length})</h3>\n<ul>\n${items.join('\n')}\n</ul>\n`;
      });
      return `<section class="part starts-page" aria-labelledby="suggestions">\n<h2 id="suggestions">Suggestions by status</h2>\n${groups.length === 0 ? '<p class="none">No suggestions yet.</p>\n' : groups.join('')}</section>\n`;
    }
    case 'actions': {
      const rows = part.actions.map(
        (action) =>
          `<tr><td class="member-text">${escapeHtml(action.suggestion)}</td><td>${escapeHtml(action.owner_name ?? 'nobody yet')}</td><td>${escapeHtml(action.due_date ?? '')}</td><td>${SUGGESTION_STATUS_LABELS[action.review_status]}</td></tr>`,
      );
      const body =
        rows.length === 0
          ? '<p class="none">No actions yet: an action is an accepted suggestion.</p>\n'
          : `<table>\n<thead><tr><th scope="col">Action</th><th scope="col">Owner</th><th scope="col">Due</th><th scope="col">Status</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>\n`;
      // The table of owners and due days is a hand-out of its own; a page for "none yet" is not.
      return `<section class="part${rows.length === 0 ? '' : ' starts-page'}" aria-labelledby="actions">\n<h2 id="actions">Actions</h2>\n${body}</section>\n`;
    }
    case 'conflicts': {
      const items = part.conflicts.map((conflict) => `<li><strong>${escapeHtml(conflict.topic)}</strong>: <span class="member-text">${escapeHtml(conflict.description)}</span></li>`);
      const body = items.length === 0 ? '<p class="none">None found in the latest team narrative.</p>\n' : `<ul>\n${items.join('\n')}\n</ul>\n`;
      return `<section class="part" aria-labelledby="conflicts">\n<h2 id="conflicts">Open conflicts</h2>\n${body}</section>\n`;
    }
  }
}

export async function* htmlExport(db: Kysely<Database>, components: readonly ReviewedComponent[], now = Date.now()): AsyncGenerator<string> {
  yield* rendered(reportParts(db, components, now), htmlPart);
  yield '</main>\n</body>\n</html>\n';
}
