import { describe, expect, it } from 'vitest';
import type { CommentForAnalysis } from '../provider.js';
import { COMPONENTS, comment } from './fixtures/comments.js';
import { createLocalProvider } from './local-provider.js';

/**
 * One member posting many comments on a component is one voice in its summary: the points several
 * teammates made and voted for stay its themes and changes, and the volume does not make it sure.
 */

const POINTS: CommentForAnalysis[] = [
  comment(1, COMPONENTS.correlation, 'Bea Brook', 'Encrypt the escalation secrets at rest with a key per tenant; today they sit in plain config.', { up: 3 }),
  comment(2, COMPONENTS.correlation, 'Cal Crane', 'Add a dead-letter queue for notifications that fail, so no page is silently lost.', { up: 2 }),
  comment(3, COMPONENTS.correlation, 'Dan Dale', 'Require a rollback runbook link before an automated remediation is approved.', { up: 2 }),
  comment(4, COMPONENTS.correlation, 'Eve Ernst', 'Show the blast radius graph in the incident channel before paging the owner.', { up: 1 }),
];

const WORDS = ['latency', 'queue', 'broker', 'retry', 'webhook', 'schema', 'shard', 'cache', 'token', 'audit', 'deploy', 'canary', 'metric', 'baseline', 'drift'];
/** Filler in the review's own words, varied so no two comments are the same: thirty of them, by one member. */
const FLOOD: CommentForAnalysis[] = Array.from({ length: 30 }, (_, i) => {
  const word = (k: number) => WORDS[(i * 7 + k * 3) % WORDS.length] ?? 'queue';
  return comment(100 + i, COMPONENTS.correlation, 'Flo Flood', `The ${word(0)} ${word(1)} should ${word(2)} the ${word(3)} before the ${word(4)} ${i}.`);
});

describe('a summary of a component one member floods', () => {
  it('keeps the teammates’ voted points first, and does not grow surer with the volume', async () => {
    const provider = createLocalProvider();
    const input = (comments: CommentForAnalysis[]) => ({ ...COMPONENTS.correlation, comments: [...comments].reverse() });
    const calm = await provider.summarizeComments(input(POINTS));
    const flooded = await provider.summarizeComments(input([...POINTS, ...FLOOD]));
    const pointIds = new Set(POINTS.map((point) => point.id));
    const cited = [...flooded.sources.contentChanges, ...flooded.sources.structuralChanges];
    // Every change it names is a teammate's point, and at least three of the four are named.
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter((id) => pointIds.has(id)).length).toBeGreaterThanOrEqual(Math.min(3, cited.length));
    expect(flooded.confidence).toBeLessThanOrEqual(calm.confidence + 0.2);
    expect(flooded.confidence).toBeLessThan(0.9);
  });
});
