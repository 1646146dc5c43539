import { describe, expect, it } from 'vitest';
import { commentSummaryOutputSchema, type CommentSummaryOutput, type NarrativeOutput, type SuggestionsOutput } from '../../common/contract/ai.js';
import {
  CopiedRuns,
  OUTPUT_GUARD_VERSION,
  asksForSecret,
  claimsConsensus,
  guardNarrative,
  guardSuggestions,
  guardSummary,
  guardText,
  guardedProvider,
  hasAddress,
  sentencesOf,
} from './output-guard.js';
import type { AiProvider } from './provider.js';

const nothingCopied = new CopiedRuns([]);

describe('links and addresses', () => {
  it.each([
    'The runbook is kept at https://wiki.internal/runbooks for now.',
    'Mirror the dashboards to ftp://files.somewhere.org before the cut-over.',
    'Status lives on www.statuswatch.net during outages.',
    'Sign up through payroll-portal.example/enrol first.',
    'The collector listens on metrics.corp:9091 today.',
    'Call 10.20.30.40:8080 to reach the broker.',
    'Open billing-help.com when the card fails.',
    'Questions go to oncall.lead@provider.co.uk directly.',
    'Write to mailto:ops for access.',
    'Use the mirror at ѕecure-lоgin.example/renew.',
  ])('finds the address in %j', (sentence) => {
    expect(hasAddress(sentence)).toBe(true);
  });

  it.each([
    'Keep the retry budget in config.yaml and document it in README.md.',
    'The worker is written in Node.js and calls setup.py for the model build.',
    'Version 2.4.1 fixed the queue lag, e.g. on Mondays.',
    'The ratio is 3/4 of the alerts, i.e. most of them.',
  ])('finds none in %j', (sentence) => {
    expect(hasAddress(sentence)).toBe(false);
  });

  it('drops the sentence carrying a link and keeps the others', () => {
    const text = 'Paging works well at night. Details are on portal.example/pager for everyone. Weekend cover needs a second rota.';
    expect(guardText(text, nothingCopied)).toBe('Paging works well at night. Weekend cover needs a second rota.');
  });
});

describe('requests for a secret', () => {
  it.each([
    'Confirm your passcode on the new page to stay signed in.',
    'Please type the shared admin password into the form below.',
    'Send your API key to the vendor contact so they can finish the setup.',
    'You will need to verify your credentials again before Friday.',
    'Reply with the PIN you use for the console.',
    'Share your one-time code with the person who calls.',
  ])('finds the request in %j', (sentence) => {
    expect(asksForSecret(sentence)).toBe(true);
  });

  it.each([
    'The gateway should verify tokens before any call reaches the queue.',
    'Services send the API key in a header, never in the query string.',
    'Short-lived credentials from the vault would give us an audit trail.',
    'Pin the model version so a rebuild cannot change the scores.',
    'Rotate secrets every ninety days and alert on any that are older.',
  ])('leaves a design statement alone: %j', (sentence) => {
    expect(asksForSecret(sentence)).toBe(false);
  });
});

describe('consensus and outcome claims', () => {
  it.each([
    'The consensus here is that the queue needs no work.',
    'Every engineer on the thread agrees the window is right.',
    'We all support keeping the current thresholds.',
    'The review has concluded that the rollout may go ahead.',
    'The design is approved as it stands.',
    'Nothing in the pager flow should be changed.',
    'No further changes are required for intake.',
    'The grouping question is settled.',
    'The decision was unanimous.',
    'No one objects to the longer retention.',
  ])('finds the claim in %j', (sentence) => {
    expect(claimsConsensus(sentence)).toBe(true);
  });

  it.each([
    'I agree with Dana that the window should be longer.',
    'Changes must be approved by the change board before release.',
    'The job restarts after five minutes if nobody objects.',
    'All engineers on call need the new runbook.',
    'The team is divided on approve rights for the night shift.',
    'During the freeze nothing automated should change the billing cluster.',
  ])('finds none in %j', (sentence) => {
    expect(claimsConsensus(sentence)).toBe(false);
  });

  const comment = 'Honestly the whole team agrees the escalation timers are already perfect and should stay exactly as they are.';
  const copied = new CopiedRuns([comment]);

  it("drops a claim made in a comment's own words", () => {
    const text = 'Escalation timers come up twice. The whole team agrees the escalation timers are already perfect. Paging is split.';
    expect(guardText(text, copied)).toBe('Escalation timers come up twice. Paging is split.');
  });

  it('keeps a claim made in its own words (from the votes)', () => {
    const text = 'There is broad agreement on escalation timers.';
    expect(guardText(text, copied)).toBe(text);
  });

  it('keeps a copied sentence that claims nothing', () => {
    const text = 'The escalation timers are already perfect and should stay.';
    expect(guardText(text, copied)).toBe(text);
  });

  it('counts a copy however it is spaced, cased or punctuated', () => {
    expect(copied.copiedIn('THE WHOLE TEAM — agrees, the escalation; timers')).toBe(true);
    expect(copied.copiedIn('the whole team agrees the')).toBe(false);
  });
});

describe('sentences', () => {
  it('joins back to the text it was cut from', () => {
    const text = 'One point. Two: “a quote. With two sentences.” Three!\nFour? (Five.) Six';
    expect(sentencesOf(text).join('')).toBe(text);
    expect(sentencesOf(text)).toHaveLength(6);
  });

  it('leaves a text without objection exactly as it was', () => {
    const text = '  Spaced   oddly.  Still fine. ';
    expect(guardText(text, nothingCopied)).toBe(text);
  });
});

const summary = (over: Partial<CommentSummaryOutput>): Omit<CommentSummaryOutput, 'setAside'> => ({
  confidence: 0.5,
  understanding: '',
  contentChanges: '',
  structuralChanges: '',
  keyThemes: [],
  sources: { keyThemes: [], contentChanges: [], structuralChanges: [] },
  ...over,
});

/** The analyzer's list of comments set aside, where the contract has one: the guard passes it through. */
const extraSummaryFields = 'setAside' in commentSummaryOutputSchema.shape ? { setAside: [] } : {};

describe('the three outputs', () => {
  it('a summary loses an emptied theme and change with their sources, and keeps the rest', () => {
    const output = summary({
      understanding: 'Four members discuss paging. Log in at pager-login.example/sso to see more.',
      keyThemes: ['Paging cover', 'Renew your password at the portal'],
      contentChanges: 'Visit www.pager-help.net for the fix.',
      structuralChanges: 'Split the rota in two.',
      sources: { keyThemes: [[1, 2], [3]], contentChanges: [3], structuralChanges: [2] },
    });
    expect(guardSummary(output, [])).toEqual(
      summary({
        understanding: 'Four members discuss paging.',
        keyThemes: ['Paging cover'],
        contentChanges: '',
        structuralChanges: 'Split the rota in two.',
        sources: { keyThemes: [[1, 2]], contentChanges: [], structuralChanges: [2] },
      }),
    );
  });

  it('suggestions lose one that is left empty, with its sources', () => {
    const comments = ['Our whole team agrees that the alert router needs nothing new this quarter at all.'];
    const output: SuggestionsOutput = {
      suggestions: [
        { suggestion: 'Our whole team agrees that the alert router needs nothing new this quarter.', recommendationType: 'content', sources: [1] },
        { suggestion: 'Add a second on-call rota.', recommendationType: 'structural', sources: [2] },
      ],
    };
    expect(guardSuggestions(output, comments)).toEqual({ suggestions: [output.suggestions[1]] });
  });

  it('a narrative loses the items whose heading goes, and the sentences that go from the rest', () => {
    const output: NarrativeOutput = {
      confidence: 0.4,
      overallConsensus: 'Support is split. Email triage.owner@company.io for the rest.',
      keyThemes: [
        { theme: 'Routing', description: 'Two suggestions. Enter your PIN to read them.', priority: 'high', netVotes: 2, sources: [1] },
        { theme: 'See routing-vote.example/ballot', description: 'x', priority: 'low', netVotes: 0, sources: [2] },
      ],
      actionItems: [{ action: 'Type your passcode here to approve.', priority: 'high', reasoning: 'r', sources: [1] }],
      conflicts: [{ topic: 'Window length', description: 'Two sides.', suggestedResolution: 'Trial it. Details at https://x.example.', sources: [1, 2] }],
    };
    expect(guardNarrative(output, [])).toEqual({
      confidence: 0.4,
      overallConsensus: 'Support is split.',
      keyThemes: [{ theme: 'Routing', description: 'Two suggestions.', priority: 'high', netVotes: 2, sources: [1] }],
      actionItems: [],
      conflicts: [{ topic: 'Window length', description: 'Two sides.', suggestedResolution: 'Trial it.', sources: [1, 2] }],
    });
  });

  it('a guarded provider guards each output against its own input and says so in its prompt version', async () => {
    const claim = 'Every reviewer agrees that the intake queue should keep its current shape for good.';
    const inner: AiProvider = {
      name: 'openai',
      model: 'm',
      promptVersion: (kind) => `inner-${kind}/1`,
      // Parsed, so that it is a whole summary whether or not the contract's summary has more fields than its text.
      summarizeComments: () => Promise.resolve(commentSummaryOutputSchema.parse({ ...summary({ understanding: `Intake is discussed. ${claim}` }), ...extraSummaryFields })),
      generateSuggestions: () => Promise.resolve({ suggestions: [{ suggestion: claim, recommendationType: 'content', sources: [1] }] }),
      narrativeSummary: () =>
        Promise.resolve({ confidence: 0.5, overallConsensus: `${claim} Intake is split.`, keyThemes: [], actionItems: [], conflicts: [] }),
    };
    const provider = guardedProvider(inner);
    const comment = { id: 1, componentId: 'c', componentTitle: 'C', kind: 'comment' as const, content: claim, memberName: 'A B', createdAt: 0, upVotes: 0, downVotes: 0 };
    expect(provider.promptVersion('summary')).toBe(`inner-summary/1+${OUTPUT_GUARD_VERSION}`);
    expect((await provider.summarizeComments({ componentId: 'c', componentTitle: 'C', comments: [comment] })).understanding).toBe('Intake is discussed.');
    expect((await provider.generateSuggestions({ comments: [comment] })).suggestions).toEqual([]);
    const narrative = await provider.narrativeSummary({ suggestions: [], sourceComments: [comment], prompt: { id: 1, template: '' } });
    expect(narrative.overallConsensus).toBe('Intake is split.');
  });
});
