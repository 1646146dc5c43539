import type { App } from '../../http/types.js';

/** The self-test's calls: run it, its progress, the latest results (admin only). */
export function registerQaRoutes(_app: App): void {
  // Filled in with the runner.
}
