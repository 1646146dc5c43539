import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commentSummarySchema, generateSuggestionsResponseSchema, suggestionSchema } from '../../../common/contract/ai.js';
import { commentCountsSchema, commentSchema } from '../../../common/contract/comments.js';
import { buildApp } from '../../app.js';
import type { App } from '../../http/types.js';
import { apiCall, signInAs } from '../../test/sign-in.js';
import { TEST_SECRETS, testConfig } from '../../test/test-app.js';
import { createTestDatabase } from '../../test/test-database.js';

/**
 * Two instances on one PostgreSQL database: a resolve, a decision and a status change made on one
 * reach the answers the other keeps in memory (its counts, comment list, summary and suggestions),
 * through the database's change notices.
 */

const COMPONENT = 'remediation-plan';

describe.skipIf(process.env.TEST_DATABASE_URL === undefined || process.env.TEST_DATABASE_URL === '')('outcomes across instances (PostgreSQL)', () => {
  it('a change on one instance reaches the answers the other keeps', async () => {
    const database = await createTestDatabase();
    const a = await buildApp(testConfig(database), { collectProcessMetrics: false });
    const b = await buildApp(testConfig(database), { collectProcessMetrics: false });
    try {
      const author = await signInAs(a, 'Rosa Lindqvist');
      const admin = await signInAs(a, 'Avery Admin');
      const post = async (content: string) => commentSchema.parse((await apiCall(a, 'POST', '/api/comments', author, { componentId: COMPONENT, content })).json()).id;
      const first = await post('Every remediation step needs a rollback written before it runs.');
      await post('Ask for a second approver when the blast radius covers a data store.');
      const generated = await apiCall(a, 'POST', '/api/suggestions/generate', author);
      const suggestion = generateSuggestionsResponseSchema.parse(generated.json()).suggestions[0];
      if (suggestion === undefined) throw new Error('no suggestion generated');

      // Instance b reads (and keeps) each answer as it stands.
      const readOnB = async (instance: App) => {
        const [counts, comments, summary, suggestions] = await Promise.all([
          apiCall(instance, 'GET', '/api/comments/counts', author),
          apiCall(instance, 'GET', `/api/comments/${COMPONENT}/with-votes`, author),
          apiCall(instance, 'GET', `/api/comments/${COMPONENT}/summary`, author),
          apiCall(instance, 'GET', '/api/suggestions/with-votes', author),
        ]);
        return {
          counts: commentCountsSchema.parse(counts.json()).components[COMPONENT],
          resolved: z.array(commentSchema).parse(comments.json()).find((comment) => comment.id === first)?.resolution !== null,
          decision: commentSummarySchema.parse(summary.json()).outcome.decision?.outcome ?? null,
          status: z.array(suggestionSchema).parse(suggestions.json()).find((listed) => listed.id === suggestion.id)?.status,
        };
      };
      expect(await readOnB(b)).toEqual({ counts: { open: 2, resolved: 0, decision: null }, resolved: false, decision: null, status: 'open' });

      expect((await apiCall(a, 'POST', `/api/comments/${first}/resolve`, author, {})).statusCode).toBe(200);
      const decided = await apiCall(a, 'POST', `/api/decisions/${COMPONENT}`, admin, { adminPassword: TEST_SECRETS.adminPassword, outcome: 'needs_rework', rationale: 'Rollbacks first' });
      expect(decided.statusCode, decided.body).toBe(201);
      const declined = await apiCall(a, 'POST', `/api/suggestions/${suggestion.id}/status`, admin, { adminPassword: TEST_SECRETS.adminPassword, status: 'declined', reason: 'Covered by the runbook review' });
      expect(declined.statusCode, declined.body).toBe(200);

      // The notices arrive on b's listening connection a moment later: poll b until it shows them, for
      // less than the 10 s after which a kept answer is reloaded anyway (so only the notices can pass).
      await expect
        .poll(() => readOnB(b), { timeout: 5_000, interval: 50 })
        .toEqual({ counts: { open: 1, resolved: 1, decision: 'needs_rework' }, resolved: true, decision: 'needs_rework', status: 'declined' });
    } finally {
      await b.close();
      await a.close();
      await database.drop();
    }
  });
});
