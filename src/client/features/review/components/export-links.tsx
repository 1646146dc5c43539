import { Download } from 'lucide-react';
import { routes } from '../../../../common/api';
import { EXPORT_CSV_KINDS } from '../../../../common/api/export';
import { buildUrl } from '../../../../common/api/route';

// At least 24 px tall (WCAG 2.5.8): on a phone the line wraps and its links are tapped, not read.
const link = 'inline-flex min-h-6 items-center rounded font-medium text-brand-700 underline decoration-brand-300 underline-offset-2 hover:text-brand-800 hover:decoration-brand-600';

/**
 * The review as files for the people who will build the platform: Markdown, and CSV of the
 * comments, the suggestions or the actions; and the printable report, a page of its own to save
 * as PDF. Plain links: the browser downloads or opens what the server streams, with the session
 * cookie like any page request.
 */
export function ExportLinks() {
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700">
      <Download className="h-4 w-4 text-slate-500" aria-hidden="true" />
      <span>Export the review:</span>
      <a className={link} href={routes.export.markdown.path} download>
        Markdown
      </a>
      <span aria-hidden="true">·</span>
      <span>CSV of the</span>
      {EXPORT_CSV_KINDS.map((kind, index) => (
        <span key={kind}>
          <a className={link} href={buildUrl(routes.export.csv.path, undefined, { kind })} download>
            {kind}
          </a>
          {index < EXPORT_CSV_KINDS.length - 1 ? ',' : ''}
        </span>
      ))}
      <span aria-hidden="true">·</span>
      {/* A new tab, so the review stays open while the report is printed. */}
      <a className={link} href={routes.export.html.path} target="_blank" rel="noopener">
        Printable report<span className="sr-only"> (opens in a new tab)</span>
      </a>
    </p>
  );
}
