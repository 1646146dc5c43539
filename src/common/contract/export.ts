import { z } from 'zod';
import { EXPORT_CSV_KINDS, exportRoutes } from '../api/export.js';

export const exportCsvQuerySchema = z.strictObject({ kind: z.enum(EXPORT_CSV_KINDS, { error: `kind must be one of ${EXPORT_CSV_KINDS.join(', ')}` }) });

export const exportContract = {
  markdown: { ...exportRoutes.markdown },
  html: { ...exportRoutes.html },
  csv: { ...exportRoutes.csv, querystring: exportCsvQuerySchema },
} as const;
