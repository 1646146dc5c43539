import { describe, expect, it } from 'vitest';
import { COMPONENTS, comment } from './fixtures/comments.js';
import { createLocalProvider } from './local-provider.js';
import { offTopic } from './relevance.js';

describe('offTopic', () => {
  it('sets aside an unvoted comment that says it is an aside, and keeps one members voted on', () => {
    const comments = [
      comment(1, COMPONENTS.triage, 'Ana Berg', 'Increase the approval gate timeout to 30 minutes.'),
      comment(2, COMPONENTS.triage, 'Ben Cole', 'Unrelated, but does anyone know if the car park on level -2 is closed next week?'),
      comment(3, COMPONENTS.triage, 'Cy Diaz', 'Side question: is the Snowflake migration still planned for Q3?'),
      comment(4, COMPONENTS.triage, 'Dee Eng', 'Does anyone know why the gate was added? It blocks every night-time fix.', { up: 3 }),
      comment(5, COMPONENTS.triage, 'Eli Fox', 'Add a replay button for alert storms.'),
    ];
    expect([...offTopic(comments)]).toEqual([1, 2]);
  });

  it('sets aside an unvoted comment about office life, however it opens', () => {
    const comments = [
      comment(1, COMPONENTS.triage, 'Ana Berg', 'Reminder: the bank holiday rota is in the shared calendar, please sort out shift swaps by Friday.'),
      comment(2, COMPONENTS.triage, 'Ben Cole', 'Freeze auto-remediation over the bank holiday weekend unless the duty manager approves.'),
      comment(3, COMPONENTS.triage, 'Cy Diaz', 'Who is booking the team lunch on Thursday?', { up: 2 }),
    ];
    expect([...offTopic(comments)]).toEqual([0]);
  });

  it('sets aside a question to the room about office life even when colleagues voted for it', () => {
    const comments = [
      comment(1, COMPONENTS.triage, 'Ana Berg', 'Does anyone know whether the staff car park by gate 2 reopens on Monday?', { up: 2 }),
      comment(2, COMPONENTS.triage, 'Ben Cole', 'Could someone from the facilities team explain why the air con in the east wing is off again?', { up: 3 }),
      comment(3, COMPONENTS.triage, 'Cy Diaz', 'Can anyone explain why the approval gate pages the duty manager at night?', { up: 2 }),
      comment(4, COMPONENTS.triage, 'Dee Eng', 'Who is booking the team lunch on Thursday?', { up: 2 }),
      comment(5, COMPONENTS.triage, 'Eli Fox', 'Happy birthday Tom! Cake by the kitchen on level 2.', { up: 4 }),
      comment(6, COMPONENTS.triage, 'Fay Gray', 'Sorry to hijack, but my car is at the garage: could anyone give me a lift on Friday?', { up: 1 }),
      comment(7, COMPONENTS.triage, 'Gus Hale', 'Congratulations on the cut-over; now add a canary check before each deploy.', { up: 2 }),
    ];
    expect([...offTopic(comments)]).toEqual([0, 1, 4, 5]);
  });

  it('sets aside unvoted asides about the kitchen, tickets and one’s own day', () => {
    const comments = [
      comment(1, COMPONENTS.triage, 'Ana Berg', 'Separate matter: the fridge on the third floor is full of old milk again.'),
      comment(2, COMPONENTS.triage, 'Ben Cole', 'Anyone got a spare seat on the minibus to the offsite?'),
      comment(3, COMPONENTS.triage, 'Cy Diaz', 'Heads up, my laptop goes in for repair on Tuesday, so ping me on Teams from my phone.'),
      comment(4, COMPONENTS.triage, 'Dee Eng', 'Quick one: can the triage view show the rule that set the severity?'),
      comment(5, COMPONENTS.triage, 'Eli Fox', 'Separate the duplicate-suppression rules from the severity rules in the UI.'),
      comment(6, COMPONENTS.triage, 'Fay Gray', 'The escalation never rang my phone, and the runbook would not open on my laptop.'),
      comment(7, COMPONENTS.triage, 'Gus Hale', 'Page the facilities on-call when the data-centre cooling alarm fires.'),
    ];
    expect([...offTopic(comments)]).toEqual([0, 1, 2]);
  });

  it('leaves the asides out of the summary and the suggestions, and the summary says so', async () => {
    const provider = createLocalProvider();
    const comments = [
      comment(1, COMPONENTS.triage, 'Ana Berg', 'Increase the approval gate timeout to 30 minutes so the duty manager can react.', { up: 2 }),
      comment(2, COMPONENTS.triage, 'Ben Cole', 'Escalate to the duty manager when the approval gate timeout is reached.', { up: 1 }),
      comment(3, COMPONENTS.triage, 'Cy Diaz', 'Off-topic: anyone up for lunch? Please book the big table and add the approval gate crew.'),
    ];
    const summary = await provider.summarizeComments({ ...COMPONENTS.triage, comments: [...comments].reverse() });
    const cited = [...summary.sources.keyThemes.flat(), ...summary.sources.contentChanges, ...summary.sources.structuralChanges];
    expect(cited).not.toContain(3);
    expect(summary.understanding).toContain('1 comment about other things was left out.');
    const { suggestions } = await provider.generateSuggestions({ comments });
    expect(suggestions.flatMap((item) => item.sources)).not.toContain(3);
  });

  it('sets aside an office event or a poll about a meeting even when colleagues voted for it, not the team’s own alarms and meetings', () => {
    const comments = [
      comment(1, COMPONENTS.triage, 'Ana Berg', 'Evacuation drill on Thursday at two, lock your screens before you leave.', { up: 3 }),
      comment(2, COMPONENTS.triage, 'Ben Cole', 'Page facilities when the fire alarm panel raises a fault.', { up: 1 }),
      comment(3, COMPONENTS.triage, 'Cy Diaz', 'Last call for the staff survey, it closes at five.', { up: 2 }),
      comment(4, COMPONENTS.triage, 'Dee Eng', 'The Monday stand-up clashes with the patch window. Show of hands for moving it to Tuesday?', { up: 4 }),
      comment(5, COMPONENTS.triage, 'Eli Fox', 'Move the CAB meeting earlier so approvals land before the freeze.'),
    ];
    expect([...offTopic(comments)]).toEqual([0, 2, 3]);
  });

  it('sets aside a charity event or an office notice passed on, voted or not, and keeps a department’s real request', () => {
    const comments = [
      comment(1, COMPONENTS.triage, 'Ana Berg', 'The charity half marathon still needs two marshals at the water station, grab Dev if you can help.', { up: 3 }),
      comment(2, COMPONENTS.triage, 'Ben Cole', 'Payroll asked me to pass on that expense claims for March close on Friday.', { up: 1 }),
      comment(3, COMPONENTS.triage, 'Cy Diaz', 'Finance asked us to tag every cluster with its cost centre so the spend report adds up.', { up: 2 }),
      comment(4, COMPONENTS.triage, 'Dee Eng', 'Security wants us to remind everyone that break-glass accounts expire after 24 hours.', { up: 2 }),
      comment(5, COMPONENTS.triage, 'Eli Fox', 'Run the triage model against the charity donations queue too, it gets P1s at night.'),
    ];
    expect([...offTopic(comments)]).toEqual([0, 1]);
  });
});
