import { beforeAll, describe, expect, it } from 'vitest';
import type { CommentForAnalysis } from '../provider.js';
import { Analyzer } from './analysis.js';
import { comment } from './fixtures/comments.js';
import { createLocalProvider } from './local-provider.js';
import { offTopic } from './relevance.js';
import { addressesTheTool } from './text.js';
import type { WordReading } from './word-model.js';
import { loadReader } from './wink.js';

/**
 * The review is about an AI platform, so its real points talk about AI, the assistant, summaries,
 * models, the architecture and its diagram, and name teammates. None of them may be set aside: a
 * comment is left out only when it is off the subject or instructs the tool what to output. The
 * discussions are written for this test, unlike any evaluation set.
 */

const ASSISTANT = { componentId: 'ops-assistant', componentTitle: 'Ops Assistant' };
const KNOWLEDGE = { componentId: 'knowledge-base', componentTitle: 'Knowledge Base' };

const assistantThread: CommentForAnalysis[] = [
  comment(1, ASSISTANT, 'Lena Fischer', 'Label every runbook the AI drafted as a draft until an engineer has signed it.', { up: 3 }),
  comment(2, ASSISTANT, 'Tomás Ruiz', 'The assistant should cite the incidents it learnt a fix from, with links to the tickets.', { up: 2 }),
  comment(3, ASSISTANT, 'Aisha Bello', 'Add the model version and prompt version to the architecture diagram next to the assistant box.'),
  comment(4, ASSISTANT, 'Lena Fischer', 'Who reviews the summaries before they go to the customer-facing status page?', { up: 1 }),
  comment(5, ASSISTANT, 'Marek Nowak', 'I agree with Tomás, and the summary panel should show which comments it left out.', { up: 2 }),
  comment(6, ASSISTANT, 'Aisha Bello', 'Our AI vendor retains prompts for 30 days; we need a data-processing agreement before go-live.', { up: 3 }),
  comment(7, ASSISTANT, 'Grace Obi', 'The language model must never see customer card numbers: mask them before the prompt is built.', { up: 4 }),
  comment(8, ASSISTANT, 'Tomás Ruiz', 'Marek, the diagram also lacks the fallback path when the model endpoint is down.'),
  comment(9, ASSISTANT, 'Grace Obi', 'Can the assistant say how confident it is, and hand over to a human below 0.7?', { up: 2 }),
  comment(10, ASSISTANT, 'Marek Nowak', 'The architecture puts the assistant inside the incident bridge; keep it read-only there.', { down: 1 }),
  comment(11, ASSISTANT, 'Lena Fischer', 'AI summaries of long bridges help the next shift, but keep the raw timeline one click away.', { up: 1 }),
  comment(12, ASSISTANT, 'Aisha Bello', 'Please mark AI generated postmortem sections clearly in the exported PDF.'),
  comment(13, ASSISTANT, 'Grace Obi', 'We keep going round in circles on this one; I am not signing off on it, so let us take it to the ops council.', { down: 2 }),
];

const knowledgeThread: CommentForAnalysis[] = [
  comment(21, KNOWLEDGE, 'Priya Nair', 'The embedding model for the knowledge base should run in our own region, not the vendor’s.', { up: 2 }),
  comment(22, KNOWLEDGE, 'Owen Price', 'Priya is right; and re-index the articles nightly so the assistant does not quote stale fixes.', { up: 1 }),
  comment(23, KNOWLEDGE, 'Sofia Costa', 'Summaries of known errors should link the article they came from.'),
  comment(24, KNOWLEDGE, 'Owen Price', 'On the diagram the knowledge base talks to the CMDB directly; is that a real dependency?'),
  comment(25, KNOWLEDGE, 'Daniel Kim', 'Review the article ownership every quarter, with the AI flagging pages nobody has opened.', { up: 1 }),
  comment(26, KNOWLEDGE, 'Sofia Costa', 'Thanks Daniel. Retire any article the model has not matched in a year.'),
];

let words: WordReading;

beforeAll(async () => {
  words = new Analyzer(await loadReader()).words;
});

describe('real points about AI, the assistant, summaries and the architecture', () => {
  it('are never read as written to the tool', () => {
    for (const item of [...assistantThread, ...knowledgeThread]) expect(addressesTheTool(item.content, words), item.content).toBe(false);
  });

  it('are never in a summary’s list of comments left out', async () => {
    const provider = createLocalProvider();
    for (const thread of [assistantThread, knowledgeThread]) {
      const first = thread[0];
      if (first === undefined) continue;
      const summary = await provider.summarizeComments({ componentId: first.componentId, componentTitle: first.componentTitle, comments: [...thread].reverse() });
      expect(summary.setAside).toEqual([]);
    }
  });

  it('are never read as off the subject, voted or not', () => {
    for (const thread of [assistantThread, knowledgeThread]) {
      const aside = offTopic(thread, words);
      expect([...aside].map((i) => thread[i]?.content)).toEqual([]);
    }
  });
});
