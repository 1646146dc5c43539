import type { Migration } from './types.js';

/** Identical client error reports become one row with a count and a last-seen time. */
export const errorReportGroups: Migration = {
  name: '0006-error-report-groups',
  async up() {
    // filled in by the error-report change
  },
};
