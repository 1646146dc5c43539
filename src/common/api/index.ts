import { activityRoutes, analyticsRoutes } from './activity.js';
import { adminRoutes } from './admin.js';
import { aiPromptRoutes } from './ai-prompts.js';
import { architectureRoutes } from './architecture.js';
import { authRoutes } from './auth.js';
import { commentRoutes } from './comments.js';
import { decisionRoutes } from './decisions.js';
import { errorReportRoutes } from './error-reports.js';
import { exportRoutes } from './export.js';
import { healthRoutes } from './health.js';
import { qaRoutes } from './qa.js';
import { suggestionRoutes } from './suggestions.js';

/** Every API call, by area: `api(routes.comments.create, { body })` on the client. */
export const routes = {
  auth: authRoutes,
  architecture: architectureRoutes,
  comments: commentRoutes,
  decisions: decisionRoutes,
  export: exportRoutes,
  suggestions: suggestionRoutes,
  aiPrompts: aiPromptRoutes,
  errorReports: errorReportRoutes,
  health: healthRoutes,
  admin: adminRoutes,
  qa: qaRoutes,
  activity: activityRoutes,
  analytics: analyticsRoutes,
} as const;
