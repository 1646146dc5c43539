import { describe, expect, it } from 'vitest';
import { COMPONENTS, comment } from './fixtures/comments.js';
import { createLocalProvider } from './local-provider.js';

/** Written for this test, unlike any evaluation set. */
const provider = createLocalProvider();

const settled = [
  comment(1, COMPONENTS.automation, 'Ines Duarte', 'Post every runbook run to the incident channel with its exit code.', { up: 3 }),
  comment(2, COMPONENTS.automation, 'Kofi Mensah', 'Post the runbook exit code to the incident channel, and the duration too.', { up: 2 }),
  comment(3, COMPONENTS.automation, 'Ruth Adler', 'Runbook runs in the incident channel would help the responder, yes.', { up: 2 }),
  comment(4, COMPONENTS.automation, 'Ines Duarte', 'Add a dry-run mode that prints the runbook plan first.', { up: 3 }),
  comment(5, COMPONENTS.automation, 'Omar Haddad', 'The dry-run plan should list every host the runbook touches.', { up: 2 }),
  comment(6, COMPONENTS.automation, 'Kofi Mensah', 'Dry-run output belongs in the ticket as well as the plan.', { up: 2 }),
  comment(7, COMPONENTS.automation, 'Ruth Adler', 'Store the run logs for ninety days in the SIEM.', { up: 3 }),
  comment(8, COMPONENTS.automation, 'Omar Haddad', 'Run logs in the SIEM need the triage decision that matched.', { up: 2 }),
  comment(9, COMPONENTS.automation, 'Ines Duarte', 'Keep the SIEM run logs append-only.', { up: 2 }),
  comment(10, COMPONENTS.automation, 'Kofi Mensah', 'Lock per incident so the same runbook cannot run twice at once.', { up: 3 }),
  comment(11, COMPONENTS.automation, 'Ruth Adler', 'The per-incident lock should expire after an hour.', { up: 2 }),
  comment(12, COMPONENTS.automation, 'Omar Haddad', 'Log who released a per-incident lock by hand.', { up: 2 }),
];

describe('confidence with dissent the analyzer cannot pair', () => {
  it('stays below 0.75 when a comment distrusts a proposal, though no sides are found', async () => {
    const calm = await provider.summarizeComments({ ...COMPONENTS.automation, comments: [...settled].reverse() });
    const doubted = await provider.summarizeComments({
      ...COMPONENTS.automation,
      comments: [...settled, comment(13, COMPONENTS.automation, 'Ruth Adler', 'I do not trust auto-approval for database restarts at all.', { up: 1 })].reverse(),
    });
    expect(calm.confidence).toBeGreaterThan(0.7);
    expect(doubted.confidence).toBeLessThanOrEqual(0.7);
  });

  it('stays below 0.75 when members vote down two comments', async () => {
    const voted = settled.map((item, i) => (i < 2 ? { ...item, downVotes: 1 } : item));
    const summary = await provider.summarizeComments({ ...COMPONENTS.automation, comments: [...voted].reverse() });
    expect(summary.confidence).toBeLessThanOrEqual(0.7);
  });
});
