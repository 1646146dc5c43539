import { foundation } from './0001-foundation.js';
import { membersAndSessions } from './0002-members-and-sessions.js';
import { comments } from './0003-comments.js';
import { ai } from './0004-ai.js';
import { enrollment } from './0005-enrollment.js';
import { errorReportGroups } from './0006-error-report-groups.js';
import { admin } from './0007-admin.js';
import { activity } from './0008-activity.js';
import { resilience } from './0009-resilience.js';
import { activityAndReports } from './0011-activity-and-reports.js';
import { commentCounts } from './0012-comment-counts.js';
import { commentResolution } from './0013-comment-resolution.js';
import { componentDecisions } from './0014-component-decisions.js';
import { suggestionOutcomes } from './0015-suggestion-outcomes.js';
import type { Migration } from './types.js';

/** Applied in this order, each exactly once per database. Append only. */
export const migrations: readonly Migration[] = [foundation, membersAndSessions, comments, ai, enrollment, errorReportGroups, admin, activity, resilience, activityAndReports, commentCounts, commentResolution, componentDecisions, suggestionOutcomes];
