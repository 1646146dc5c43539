import { defineRoute } from './route.js';

/** What a CSV export holds: the comments, the suggestions, or the actions. */
export const EXPORT_CSV_KINDS = ['comments', 'suggestions', 'actions'] as const;
export type ExportCsvKind = (typeof EXPORT_CSV_KINDS)[number];

/**
 * The review exported for the people who build the platform: every member may download it. The
 * answers are files (Markdown, CSV) and a printable HTML report, streamed, not JSON; the page links
 * to them.
 */
export const exportRoutes = {
  markdown: defineRoute<{ response: string }>()('GET', '/api/export/review.md'),
  html: defineRoute<{ response: string }>()('GET', '/api/export/review.html'),
  csv: defineRoute<{ query: { kind: ExportCsvKind }; response: string }>()('GET', '/api/export/review.csv'),
} as const;
