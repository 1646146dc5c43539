import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentSchema } from '../../../common/contract/comments.js';
import { AiEngine } from '../../ai-providers/engine.js';
import type { AiProvider } from '../../ai-providers/provider.js';
import { LocalEventBus } from '../../event-bus/event-bus.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { insertListedSuggestion } from '../../test/suggestions.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { allCommentsForAnalysis, commentsForAnalysisByIds, componentCommentsForAnalysis } from '../comments/analysis-input.js';
import { findMemberByKey } from '../members/repo.js';
import { SuggestionService } from './service.js';
import { AdminActions } from '../admin/policies.js';
import { RateLimiter } from '../../http/rate-limit.js';

/**
 * A member may vote on their own comment (and on a suggestion made from it), but that vote is no
 * support: what the AI reads leaves it out, on the database the run is configured for.
 */

const COMPONENT = 'agentic-triage';

describe("an author's own vote in the AI input", () => {
  let testApp: TestApp;
  const who: Record<'alice' | 'bob' | 'casey', { cookies: SessionCookies; id: number }> = {
    alice: { cookies: {}, id: 0 },
    bob: { cookies: {}, id: 0 },
    casey: { cookies: {}, id: 0 },
  };
  let first = 0;
  let second = 0;

  const post = async (member: keyof typeof who, content: string) => {
    const response = await apiCall(testApp.app, 'POST', '/api/comments', who[member].cookies, { componentId: COMPONENT, content });
    expect(response.statusCode, response.body).toBe(201);
    return commentSchema.parse(response.json()).id;
  };
  const vote = async (member: keyof typeof who, path: string, voteType: 'thumbs_up' | 'thumbs_down') => {
    const response = await apiCall(testApp.app, 'POST', path, who[member].cookies, { voteType });
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    const names = { alice: 'Alice Archer', bob: 'Bob Baker', casey: 'Casey Chen' } as const;
    for (const [member, name] of Object.entries(names) as [keyof typeof names, string][]) {
      const cookies = await signInAs(testApp.app, name);
      const row = await findMemberByKey(testApp.app.database.db, name.toLowerCase());
      if (row === undefined) throw new Error(`no member ${name}`);
      who[member] = { cookies, id: row.id };
    }
    first = await post('alice', 'Escalate unacknowledged Sev2 proposals to the duty manager after fifteen minutes.');
    second = await post('bob', 'Show the assignment groups the agent rejected, with the reason for each.');
    // Each author votes on their own comment; the others vote as members do.
    await vote('alice', `/api/comments/${first}/vote`, 'thumbs_up');
    await vote('bob', `/api/comments/${first}/vote`, 'thumbs_up');
    await vote('casey', `/api/comments/${first}/vote`, 'thumbs_up');
    await vote('bob', `/api/comments/${second}/vote`, 'thumbs_down');
    await vote('casey', `/api/comments/${second}/vote`, 'thumbs_down');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('leaves a comment author’s vote out of its counts and voter lists, in every way comments are read', async () => {
    const { db } = testApp.app.database;
    const expected = {
      [first]: { upVotes: 2, downVotes: 0, upVoterIds: [who.bob.id, who.casey.id], downVoterIds: [] },
      [second]: { upVotes: 0, downVotes: 1, upVoterIds: [], downVoterIds: [who.casey.id] },
    };
    const readings = [
      await componentCommentsForAnalysis(db, COMPONENT, 'Agentic Triage'),
      await allCommentsForAnalysis(db, { titleOf: (id) => id, descriptionOf: () => undefined }),
      await commentsForAnalysisByIds(db, [first, second], { titleOf: (id) => id, descriptionOf: () => undefined }),
    ];
    for (const comments of readings) {
      for (const id of [first, second]) {
        const comment = comments.find((item) => item.id === id);
        expect(comment && { upVotes: comment.upVotes, downVotes: comment.downVotes, upVoterIds: [...(comment.upVoterIds ?? [])].sort((a, b) => a - b), downVoterIds: comment.downVoterIds }).toEqual(expected[id]);
      }
    }
  });

  it("leaves a suggestion's authors' votes, on it and on its comments, out of its support", async () => {
    const { db, dialect } = testApp.app.database;
    const suggestionId = await insertListedSuggestion(db, {
      text: 'Escalate stale Sev2 proposals and show the rejected groups.',
      componentIds: [COMPONENT],
      initials: ['AA', 'BB'],
      sources: [first, second],
      requestedBy: 'Alice Archer',
    });
    // Alice wrote one of its comments; Casey did not.
    await vote('alice', `/api/suggestions/${suggestionId}/vote`, 'thumbs_up');
    await vote('casey', `/api/suggestions/${suggestionId}/vote`, 'thumbs_up');

    const unused: AiProvider = {
      name: 'local',
      model: 'unused',
      promptVersion: () => 'unused/1',
      summarizeComments: () => Promise.reject(new Error('not called')),
      generateSuggestions: () => Promise.reject(new Error('not called')),
      narrativeSummary: () => Promise.reject(new Error('not called')),
    };
    const service = new SuggestionService(db, dialect, new AiEngine(unused, unused, pino({ level: 'silent' }), 1_000), new LocalEventBus(), new AdminActions(db, new RateLimiter(db), () => 'unused'), (id) => id);
    const { suggestions } = await service.listForAnalysis();
    // Bob's up-vote on Alice's comment is an author's too: both wrote what the suggestion follows from.
    expect(suggestions.find((item) => item.id === suggestionId)).toMatchObject({
      upVotes: 2,
      downVotes: 1,
      upVoterIds: [who.casey.id],
      downVoterIds: [who.casey.id],
    });
  });
});
