import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommentSummary, CommentSummaryOutput } from '../../../common/contract/ai.js';
import { commentSummarySchema } from '../../../common/contract/ai.js';
import { AiEngine } from '../../ai-providers/engine.js';
import type { AiProvider, SummarizeCommentsInput } from '../../ai-providers/provider.js';
import { signInAs } from '../../test/sign-in.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { insertComment } from './repo.js';
import { findMemberByKey } from '../members/repo.js';
import { CommentSummaryService } from './summary-service.js';

/**
 * The summary service under a flood of "new comment, new request" rounds while an analysis runs:
 * one analysis runs per component, the rounds share one follow-up, and that follow-up reads every
 * comment committed before its requests. A provider stands in for the analyzer so the test decides
 * when an analysis ends.
 */

const COMPONENT = 'event-correlation';

/** Counts its analyses; each waits until the test releases it. */
function heldProvider() {
  const calls: SummarizeCommentsInput[] = [];
  const releases: (() => void)[] = [];
  const provider: AiProvider = {
    name: 'local',
    model: 'held',
    promptVersion: () => 'held/1',
    summarizeComments: async (input) => {
      calls.push(input);
      await new Promise<void>((resolve) => releases.push(resolve));
      const output: CommentSummaryOutput = {
        confidence: 0.5,
        understanding: `${input.comments.length} comments`,
        contentChanges: '',
        structuralChanges: '',
        keyThemes: [],
        sources: { keyThemes: [], contentChanges: [], structuralChanges: [] },
        setAside: [],
      };
      return output;
    },
    generateSuggestions: () => Promise.reject(new Error('unused')),
    narrativeSummary: () => Promise.reject(new Error('unused')),
  };
  const releaseAll = () => {
    for (const release of releases.splice(0)) release();
  };
  return { provider, calls, releaseAll };
}

/** Lets every pending callback run: the requests made so far have reached the service's coalescing. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('summary coalescing', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
    await signInAs(testApp.app, 'Cora Colleague');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('answers twenty parallel requests with one analysis', async () => {
    const { db } = testApp.app.database;
    const held = heldProvider();
    const service = new CommentSummaryService(db, new AiEngine(held.provider, held.provider, pino({ level: 'silent' }), 20_000), () => 'Agentic Triage');
    const member = await findMemberByKey(db, 'cora colleague');
    if (member === undefined) throw new Error('no member');
    await insertComment(db, { componentId: 'agentic-triage', kind: 'comment', content: 'Show the confidence of each pick.', memberId: member.id, memberName: 'Cora Colleague' });

    const answers = Array.from({ length: 20 }, () => service.summary('agentic-triage'));
    while (held.calls.length === 0) await settle();
    for (let turn = 0; turn < 5; turn += 1) await settle();
    expect(held.calls).toHaveLength(1);
    held.releaseAll();
    const bodies = (await Promise.all(answers)).map((summary) => JSON.stringify(summary));
    expect(held.calls).toHaveLength(1);
    expect(new Set(bodies).size).toBe(1);
  });

  it('runs one analysis and one shared follow-up for ten rounds, and the follow-up sees every comment', async () => {
    const { db } = testApp.app.database;
    const member = await findMemberByKey(db, 'cora colleague');
    if (member === undefined) throw new Error('no member');
    const held = heldProvider();
    const service = new CommentSummaryService(db, new AiEngine(held.provider, held.provider, pino({ level: 'silent' }), 20_000), () => 'Event Correlation');

    const answers: Promise<CommentSummary>[] = [];
    for (let round = 0; round < 10; round += 1) {
      const row = await insertComment(db, { componentId: COMPONENT, kind: 'comment', content: `Point ${round}`, memberId: member.id, memberName: 'Cora Colleague' });
      expect(row.component_id).toBe(COMPONENT);
      answers.push(service.summary(COMPONENT));
      await settle();
    }
    // Only the first round's analysis has started; the nine others wait behind it, together.
    expect(held.calls).toHaveLength(1);
    held.releaseAll();
    await settle();
    while (held.calls.length < 2) await settle();
    held.releaseAll();
    const summaries = (await Promise.all(answers)).map((summary) => commentSummarySchema.parse(summary));
    expect(held.calls).toHaveLength(2);
    expect(held.calls[0]?.comments).toHaveLength(1);
    expect(held.calls[1]?.comments).toHaveLength(10);
    expect(summaries[0]?.commentIds).toHaveLength(1);
    for (const summary of summaries.slice(1)) expect(summary.commentIds).toHaveLength(10);
  });
});
