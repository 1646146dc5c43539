import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentSummarySchema, generateSuggestionsResponseSchema, narrativeSummarySchema } from '../../../common/contract/ai.js';
import { ANALYSIS_BOUNDS } from '../../ai-providers/analysis-bounds.js';
import { loadDevelopmentSets } from '../../ai-providers/eval/sets.js';
import { prng } from '../../seed/random.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { findMemberByKey } from '../members/repo.js';

/**
 * One member posting within every limit (30 comments a minute, 5,000 characters each) must not
 * make an AI call fail for the team: 600 comments of 4,500 characters on one component, and more
 * on others, ran the analyzer's worker out of its heap (or past its time budget) on every
 * generation and summary, which answered 503. Here the app runs its real analyzer pool, with the
 * worker's production heap bounds; each call now reads a bounded sample and says so.
 */

const TARGET = 'agentic-triage';
const OTHERS = ['approved-automation', 'event-correlation'];
const ON_TARGET = 600;
const PER_OTHER = 75;
const LENGTH = 4_500;

/** Realistic review prose: sentences of the labelled sets' on-topic comments, drawn at random. */
function proseSource(): (length: number) => string {
  const sentences = loadDevelopmentSets().flatMap((set) =>
    set.components.flatMap((component) => {
      const setAside = new Set([...component.offTopic, ...component.injection]);
      return component.comments
        .filter((comment) => !setAside.has(comment.key) && !/\b(AI|summary|ignore|instructions?|prompt|model)\b/i.test(comment.text))
        .flatMap((comment) => comment.text.split(/(?<=[.!?])\s+/).filter((sentence) => sentence.length > 20));
    }),
  );
  const random = prng(20_261_127);
  return (length) => {
    let text = '';
    while (text.length < length) text += `${sentences[Math.floor(random() * sentences.length)] ?? ''} `;
    return text.slice(0, length).trim();
  };
}

describe('AI calls over a flood of long comments', () => {
  let testApp: TestApp;
  let alice: SessionCookies;

  beforeAll(async () => {
    testApp = await createTestApp();
    alice = await signInAs(testApp.app, 'Alice Archer');
    await signInAs(testApp.app, 'Bob Baker');
    const { db } = testApp.app.database;
    const author = await findMemberByKey(db, 'alice archer');
    const voter = await findMemberByKey(db, 'bob baker');
    if (author === undefined || voter === undefined) throw new Error('no members');
    const prose = proseSource();
    const start = Date.now() - 24 * 3_600_000;
    const rows = [...Array.from({ length: ON_TARGET }, () => TARGET), ...OTHERS.flatMap((id) => Array.from({ length: PER_OTHER }, () => id))].map((componentId, i) => ({
      component_id: componentId,
      kind: 'comment' as const,
      content: prose(LENGTH),
      member_id: author.id,
      member_name: author.full_name,
      created_at: start + i * 2_000,
    }));
    // Inserted directly: the posting limit would take 25 minutes to let them through.
    const ids: number[] = [];
    for (let offset = 0; offset < rows.length; offset += 100) {
      const inserted = await db.insertInto('comments').values(rows.slice(offset, offset + 100)).returning('id').execute();
      ids.push(...inserted.map((row) => row.id));
    }
    // A few old comments the team voted for: the sample must keep them.
    const voted = ids.slice(0, 10);
    await db
      .insertInto('comment_votes')
      .values(voted.map((commentId) => ({ comment_id: commentId, member_id: voter.id, member_name: voter.full_name, vote_type: 'thumbs_up' as const, created_at: Date.now() })))
      .execute();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('answers the suggestions, the summary and the narrative, each from a bounded sample it reports', async () => {
    const generated = await apiCall(testApp.app, 'POST', '/api/suggestions/generate', alice);
    expect(generated.statusCode, generated.body).toBe(200);
    const summaryResponse = await apiCall(testApp.app, 'GET', `/api/comments/${TARGET}/summary`, alice);
    expect(summaryResponse.statusCode, summaryResponse.body).toBe(200);
    const narrative = await apiCall(testApp.app, 'GET', '/api/suggestions/narrative-summary', alice);
    expect(narrative.statusCode, narrative.body).toBe(200);
    narrativeSummarySchema.parse(narrative.json());

    const generation = generateSuggestionsResponseSchema.parse(generated.json());
    const total = ON_TARGET + OTHERS.length * PER_OTHER;
    const read = Math.floor(ANALYSIS_BOUNDS.charsPerCall / ANALYSIS_BOUNDS.charsPerComment);
    expect(generation.commentCount).toBeLessThanOrEqual(read);
    expect(generation.sample).toMatchObject({ read: generation.commentCount, of: total });

    const summary = commentSummarySchema.parse(summaryResponse.json());
    expect(summary.sample).toEqual({ read: ANALYSIS_BOUNDS.commentsPerComponent, of: ON_TARGET, shortened: ANALYSIS_BOUNDS.commentsPerComponent });
    // Every comment there was is named, so the panel counts none of them as new.
    expect(summary.commentIds).toHaveLength(ON_TARGET);
  }, 180_000);
});
