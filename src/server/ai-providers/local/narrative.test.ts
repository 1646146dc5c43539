import { describe, expect, it } from 'vitest';
import { narrativeOutputSchema } from '../../../common/contract/ai.js';
import type { CommentForAnalysis, NarrativeSummaryInput, SuggestionForAnalysis } from '../provider.js';
import { comment } from './fixtures/comments.js';
import { shuffled, stringsOf } from './fixtures/helpers.js';
import { SPLIT_VOTE_ID, TIMEOUT_DOWN_ID, TIMEOUT_UP_ID, agreedSuggestions, conflictSuggestions, suggestion } from './fixtures/suggestions.js';
import { createLocalProvider } from './local-provider.js';

const provider = createLocalProvider();
const prompt = { id: 3, template: 'Summarise these: {suggestionsText}' };
const input = (suggestions: SuggestionForAnalysis[]): NarrativeSummaryInput => ({ suggestions, prompt });

describe('local narrativeSummary', () => {
  it('claims no agreement before anyone votes, however many members raised a point', async () => {
    const unvoted = [
      suggestion(1, 'Page on a failed replication job, or we lose data when the primary array dies.', { initials: ['AB', 'CD', 'EF'], sources: 3 }),
      suggestion(2, 'Link each volume alert to its owning application.', { initials: ['GH'] }),
    ];
    const { overallConsensus } = await provider.narrativeSummary(input(unvoted));
    expect(overallConsensus).not.toMatch(/agreement/i);
    expect(overallConsensus).toContain('No theme has clear support yet.');
  });

  it('says every suggestion is decided, not that there are none, when the only ones were settled', async () => {
    const { overallConsensus, conflicts } = await provider.narrativeSummary({ ...input([]), settledCount: 5 });
    expect(overallConsensus).toMatch(/^Every suggestion has been decided/);
    expect(conflicts).toEqual([]);
  });

  it('reports the split vote and the opposing values as conflicts, each with a next step', async () => {
    const narrative = await provider.narrativeSummary(input(conflictSuggestions));
    expect(narrative.conflicts.map((conflict) => conflict.sources)).toEqual([[SPLIT_VOTE_ID], [TIMEOUT_UP_ID, TIMEOUT_DOWN_ID]]);
    const [split, opposing] = narrative.conflicts;
    expect(split?.topic).toBe('Human approval step');
    expect(split?.description).toContain('5 members voted for and 4 members against');
    // Named by the question both write, with the two values.
    expect(opposing?.topic).toBe('Approval gate timeout: 30 minutes or 5 minutes?');
    expect(opposing?.description).toMatch(/One side: .*Increase the approval gate timeout.*The other: .*Reduce the approval gate timeout/);
    for (const conflict of narrative.conflicts) expect(conflict.suggestedResolution).toMatch(/next review/);
    expect(narrative.overallConsensus).toContain('The team is split on human approval step and approval gate timeout.');
  });

  describe('with the comments the suggestions follow from', () => {
    const engagement = { componentId: 'responder-engagement', componentTitle: 'Responder Engagement' };
    const withVoters = (item: CommentForAnalysis, memberId: number, up: number[], down: number[]): CommentForAnalysis => ({
      ...item,
      memberId,
      upVotes: up.length,
      downVotes: down.length,
      upVoterIds: up,
      downVoterIds: down,
    });
    const sourceComments = [
      withVoters(comment(41, engagement, 'Ana Berg', 'Page the owning on-call straight away when the service desk declares from customer calls.'), 1, [3, 4], [2]),
      withVoters(comment(42, engagement, 'Ben Cole', "I'd rather it opened a ServiceNow ticket only and paged nobody until a monitor confirms the customer calls."), 2, [5], [1, 3]),
      withVoters(comment(43, engagement, 'Cy Diaz', 'Show the declarer on the incident timeline as the reporter.'), 3, [1, 2], []),
    ];
    // Worded apart and voted with no crossing of their own: only the comments show they stand against each other.
    const suggestions = [
      suggestion(51, 'Responder Engagement: Page the owning on-call straight away for customer calls.', { titles: ['Responder Engagement'], up: 2 }),
      suggestion(52, 'Responder Engagement: Open a ServiceNow ticket only until a monitor confirms.', { titles: ['Responder Engagement'], up: 1 }),
      suggestion(53, 'Responder Engagement: Show the declarer on the incident timeline as the reporter.', { titles: ['Responder Engagement'], up: 2 }),
    ].map((item, i) => ({ ...item, sourceIds: [41 + i] }));

    it('read the disagreement from the comments and cite the suggestions of both sides', async () => {
      expect((await provider.narrativeSummary(input(suggestions))).conflicts).toEqual([]);
      const narrative = await provider.narrativeSummary({ ...input(suggestions), sourceComments });
      expect(narrative.conflicts.map((conflict) => conflict.sources)).toEqual([[51, 52]]);
      const [conflict] = narrative.conflicts;
      expect(conflict?.topic).toMatch(/\(Responder Engagement\)$/);
      expect(conflict?.description).toMatch(/One side: “Page the owning on-call.*The other: “Open a ServiceNow ticket only/);
      // Each side once: not its comment's words and then its suggestion's again.
      expect(conflict?.description.match(/Page the owning on-call/g)).toHaveLength(1);
      expect(conflict?.description.match(/ServiceNow ticket/g)).toHaveLength(1);
      expect(conflict?.suggestedResolution).toMatch(/next review/);
    });
  });

  describe('read as a lead reads it', () => {
    const where = { componentId: 'storage-alerting', componentTitle: 'Storage Alerting' };
    const titles = ['Storage Alerting'];
    /** A source comment by a member (id = index in NAMES + 1), with who voted it. */
    const NAMES = ['Dana Ruiz', 'Omar Haddad', 'Priya Raman', 'Lena Vogt', 'Tom Berg', 'Ines Sousa', 'Kofi Mensah', 'Yuki Sato', 'Raj Patel'];
    const by = (id: number, author: number, text: string, up: number[] = [], down: number[] = []): CommentForAnalysis => ({
      ...comment(id, where, NAMES[author - 1] ?? 'Someone', text),
      memberId: author,
      upVotes: up.length,
      downVotes: down.length,
      upVoterIds: up,
      downVoterIds: down,
    });
    /** The suggestion made of some comments, with their votes and voters, as the service passes it. */
    const from = (id: number, text: string, sources: readonly CommentForAnalysis[]): SuggestionForAnalysis => ({
      ...suggestion(id, text, { titles, initials: [...new Set(sources.map((source) => source.memberName.split(' ').map((part) => part[0]).join('')))], sources: sources.length }),
      upVotes: sources.reduce((sum, source) => sum + source.upVotes, 0),
      downVotes: sources.reduce((sum, source) => sum + source.downVotes, 0),
      upVoterIds: [...new Set(sources.flatMap((source) => source.upVoterIds ?? []))],
      downVoterIds: [...new Set(sources.flatMap((source) => source.downVoterIds ?? []))],
      sourceIds: sources.map((source) => source.id),
    });

    it('says who raised an action by name, without the greeting, teammate or title it opens with', async () => {
      const sources = [by(1, 1, 'Priya, page both storage on-call teams for every array outage.', [4, 5]), by(2, 2, 'Agree, page both teams on an array outage.', [4])];
      // Priya, called by name, wrote elsewhere in the review.
      const elsewhere = by(3, 3, 'Keep the array dashboards as they are.', [1]);
      const suggestions = [from(7, 'Storage Alerting: Priya, page both storage on-call teams for every array outage.', sources), from(8, 'Keep the array dashboards as they are.', [elsewhere])];
      const [action] = (await provider.narrativeSummary({ ...input(suggestions), sourceComments: [...sources, elsewhere] })).actionItems;
      expect(action?.action).toBe('Page both storage on-call teams for every array outage.');
      expect(action?.reasoning).toBe('Raised by Dana Ruiz and Omar Haddad and voted up by 2 members (+3 / −0), from 2 comments on Storage Alerting.');
    });

    it('spreads priorities by evidence over a review of many suggestions, the best-supported never below the least', async () => {
      // Every one has three net votes or more, as summed comment votes soon do: the members behind them differ.
      const review = [
        // Raised by three members on their own, voted up by most of the team.
        [by(11, 1, 'Group the disk latency alerts of one array into one incident.', [4, 5, 6, 7]), by(12, 2, 'One incident per array for disk latency, please.', [5, 8]), by(13, 3, 'Disk latency alerts should group by array.', [9])],
        // Two members, and a few more voting.
        [by(21, 4, 'Show the rebuild progress of a degraded array on the incident.', [1, 2, 3]), by(22, 5, 'The incident should show the rebuild progress.', [3, 6])],
        [by(31, 6, 'Alert on a snapshot job that has not finished within its window.', [1, 2, 3, 4])],
        // A severe consequence: lost data.
        [by(41, 7, 'Page on a failed replication job, or we lose data when the primary array dies.', [8, 9, 1])],
        [by(51, 8, 'Link each volume alert to its owning application.', [1, 9, 2])],
        [by(61, 9, 'Add the array firmware version to every alert.', [2, 3, 4])],
        [by(71, 1, 'Rename the storage dashboard to Arrays.', [5, 6, 7])],
        [by(81, 2, 'Move the quota warnings into a weekly digest.', [3, 4, 5, 6], [7])],
        [by(91, 3, 'Colour the capacity graph by pool.', [4, 5, 6])],
      ];
      const suggestions = review.map((sources, i) => from(100 + i, sources[0]?.content ?? '', sources));
      const narrative = await provider.narrativeSummary({ ...input(suggestions), sourceComments: review.flat() });
      const priorityOf = (id: number) => narrative.actionItems.find((item) => item.sources[0] === id)?.priority;
      expect(new Set(narrative.actionItems.map((item) => item.priority)).size).toBeGreaterThanOrEqual(2);
      expect(priorityOf(100)).toBe('high');
      const rank = { high: 0, medium: 1, low: 2 } as const;
      for (const item of narrative.actionItems) expect(rank[priorityOf(100) ?? 'low']).toBeLessThanOrEqual(rank[item.priority]);
      // The severe one is not put below a plain one with the same backing.
      expect(rank[priorityOf(103) ?? 'low']).toBeLessThanOrEqual(rank[priorityOf(104) ?? 'low']);
    });

    it('marks high only what comes near the best-backed when one point is far ahead', async () => {
      const review = [
        [by(11, 1, 'Group the disk latency alerts of one array into one incident.', [2, 3, 4, 5, 6, 7, 8, 9])],
        [by(21, 2, 'Show the rebuild progress of a degraded array on the incident.', [3, 4, 5])],
        [by(31, 3, 'Alert on a snapshot job that has not finished within its window.', [4, 5, 6])],
        [by(41, 4, 'Link each volume alert to its owning application.', [5, 6, 7])],
      ];
      const suggestions = review.map((sources, i) => from(100 + i, sources[0]?.content ?? '', sources));
      const narrative = await provider.narrativeSummary({ ...input(suggestions), sourceComments: review.flat() });
      expect(narrative.actionItems.map((item) => [item.sources[0], item.priority])).toEqual([
        [100, 'high'],
        [101, 'medium'],
        [102, 'medium'],
        [103, 'medium'],
      ]);
    });

    describe('one member with many comments, voted up by themselves', () => {
      const TOPICS = [
        'Add the array serial number to every storage alert',
        'Colour the capacity graph by storage pool',
        'Move the quota warnings into a weekly digest',
        'Rename the storage dashboard to Arrays',
        'Show the firmware version beside each array',
        'Sort the volume list by free space',
        'Put the vendor support contract on the array page',
        'Mute the fan speed warnings during business hours',
        'Export the snapshot schedule as a spreadsheet',
        'Add a dark theme to the storage console',
        'Tag every volume with its cost centre',
        'Keep a changelog of the multipath settings',
      ];
      // Dana (member 1) writes five comments on each point and votes every one of them up herself.
      const flood = TOPICS.map((topic, t) => {
        const sources = Array.from({ length: 5 }, (_item, k) => by(1_000 + 10 * t + k, 1, `${topic}.`, [1]));
        return { sources, suggestion: from(200 + t, `${topic}.`, sources) };
      });
      // Omar's point, voted up by Priya and Lena: three members.
      const pointSources = [by(2, 2, 'Page the storage on-call when a replication link has been down for ten minutes.', [3, 4])];
      const point = from(300, 'Page the storage on-call when a replication link has been down for ten minutes.', pointSources);
      const sourceComments = [...flood.flatMap((entry) => entry.sources), ...pointSources];

      it('rank below a point three other members stand behind, and do not push it out of the actions or themes', async () => {
        const narrative = await provider.narrativeSummary({ ...input([...flood.map((entry) => entry.suggestion), point]), sourceComments });
        expect(narrative.actionItems).toHaveLength(10);
        expect(narrative.actionItems[0]?.sources).toEqual([300]);
        expect(narrative.keyThemes.some((theme) => theme.sources.includes(300))).toBe(true);
        expect(narrative.keyThemes.find((theme) => theme.sources.includes(300))?.priority).not.toBe('low');
      });
    });
  });

  describe('two suggestions the same members vote opposite ways', () => {
    const voted = (item: SuggestionForAnalysis, up: number[], down: number[]): SuggestionForAnalysis => ({
      ...item,
      upVotes: up.length,
      downVotes: down.length,
      upVoterIds: up,
      downVoterIds: down,
    });
    const forStatus = voted(suggestion(31, 'Responder Engagement: Publish the drafted status-page update automatically after ten minutes.', { titles: ['Responder Engagement'] }), [1, 2, 3], [4, 5, 6]);
    const againstStatus = voted(suggestion(32, 'Responder Engagement: Keep every status-page update a draft for a human to send.', { titles: ['Responder Engagement'] }), [4, 5, 6], [1, 2, 3]);

    it('are one conflict citing both sides, not two one-sided ones', async () => {
      const narrative = await provider.narrativeSummary(input([forStatus, againstStatus]));
      expect(narrative.conflicts.map((conflict) => conflict.sources)).toEqual([[31, 32]]);
      const [conflict] = narrative.conflicts;
      expect(conflict?.topic).toBe('Status-page update on Responder Engagement');
      expect(conflict?.description).toMatch(/One side: .*Publish the drafted status-page update.*The other: .*Keep every status-page update a draft.*Members who back one vote the other down\./);
      expect(conflict?.suggestedResolution).toMatch(/next review/);
    });

    it('cite a suggestion that offers a middle way, and quote it as the way out', async () => {
      const middle = suggestion(33, 'Responder Engagement: Middle ground: publish the status-page update automatically only for regional edge outages.', { titles: ['Responder Engagement'], up: 5 });
      const [conflict] = (await provider.narrativeSummary(input([forStatus, againstStatus, middle]))).conflicts;
      expect(conflict?.sources).toEqual([31, 32, 33]);
      expect(conflict?.suggestedResolution).toMatch(/^A middle way is on the table: “Middle ground: publish/);
    });

    it('take along a further suggestion that stands against one side, on the other side', async () => {
      const alsoAgainst = voted(suggestion(34, 'Responder Engagement: Keep the status-page update a draft until the incident commander approves it.', { titles: ['Responder Engagement'] }), [4, 5], [1, 2]);
      const [conflict, ...others] = (await provider.narrativeSummary(input([forStatus, againstStatus, alsoAgainst]))).conflicts;
      expect(others).toEqual([]);
      expect(conflict?.sources).toEqual([31, 32, 34]);
      expect(conflict?.description).toContain('with 1 more suggestion on that side');
    });

    it('count who backs an action in distinct members, never more than voted', async () => {
      const backed = voted(suggestion(35, 'Responder Engagement: Page both edge on-call teams for every Sev1.', { titles: ['Responder Engagement'], initials: ['AB', 'CD'], sources: 3 }), [1, 2, 3, 4], []);
      const [action] = (await provider.narrativeSummary(input([{ ...backed, upVotes: 9 }]))).actionItems;
      // Nine up-votes over its three comments, from four distinct members.
      expect(action?.reasoning).toBe('Written by 2 members and voted up by 4 members (+9 / −0), from 3 comments on Responder Engagement.');
    });

    it('are not set against each other when they concern different components', async () => {
      const elsewhere = { ...againstStatus, componentTitles: ['Agentic Triage'], suggestion: 'Agentic Triage: Keep every triage result a draft for a human to confirm.' };
      const narrative = await provider.narrativeSummary(input([forStatus, elsewhere]));
      expect(narrative.conflicts.length).toBeGreaterThan(0);
      for (const conflict of narrative.conflicts) expect(conflict.sources).toHaveLength(1);
    });
  });

  it('finds a theme across components and names it by its topic, not by a component', async () => {
    const narrative = await provider.narrativeSummary(
      input([
        suggestion(41, 'Approved Automation: Add a global kill switch that stops every automation run at once.', { titles: ['Approved Automation'], up: 4 }),
        suggestion(42, 'Remediation Plan: Honour the global kill switch before any remediation run starts.', { titles: ['Remediation Plan'], up: 3 }),
        suggestion(43, 'Agentic Triage: Show the alternative assignment groups with their confidence.', { titles: ['Agentic Triage'], up: 2 }),
      ]),
    );
    const theme = narrative.keyThemes.find((entry) => entry.sources.includes(41));
    expect(theme?.sources).toEqual([41, 42]);
    expect(theme?.theme.toLowerCase()).toContain('kill switch');
    expect(theme?.description).toMatch(/2 suggestions on Approved Automation and Remediation Plan concern/);
  });

  it('reports no conflict where the team pulls one way', async () => {
    const narrative = await provider.narrativeSummary(input(agreedSuggestions));
    expect(narrative.conflicts).toEqual([]);
    expect(narrative.overallConsensus).toContain('No topic is contested.');
  });

  it('needs strong votes on both sides for a split', async () => {
    const narrative = await provider.narrativeSummary(
      input([
        suggestion(1, 'Add a maintenance calendar to the correlation rules.', { titles: ['Event Correlation'], up: 9, down: 2 }),
        suggestion(2, 'Show the CMDB relationship graph next to each incident.', { up: 1, down: 1 }),
      ]),
    );
    expect(narrative.conflicts).toEqual([]);
  });

  it('groups suggestions into vote-weighted themes that cite the suggestions using their words', async () => {
    const narrative = await provider.narrativeSummary(input(agreedSuggestions));
    const approval = narrative.keyThemes.find((theme) => theme.theme === 'Approval gate timeout');
    expect(approval).toMatchObject({ priority: 'high', netVotes: 9, sources: [21, 22, 23] });
    expect(approval?.description).toContain('3 suggestions on Agentic Triage concern approval gate timeout');
    const texts = new Map(agreedSuggestions.map((item) => [item.id, item.suggestion.toLowerCase()]));
    for (const id of approval?.sources ?? []) expect(texts.get(id)).toContain('approval gate timeout');
    for (const theme of narrative.keyThemes) {
      const expected = theme.sources.reduce((sum, id) => {
        const item = agreedSuggestions.find((candidate) => candidate.id === id);
        return sum + (item === undefined ? Number.NaN : item.upVotes - item.downVotes);
      }, 0);
      expect(theme.netVotes).toBe(expected);
    }
  });

  it('sets theme priority by votes: high for strong support, low for a single unsupported suggestion', async () => {
    const narrative = await provider.narrativeSummary(
      input([
        suggestion(1, 'Increase the approval gate timeout to 30 minutes.', { up: 2 }),
        suggestion(2, 'Make the approval gate timeout configurable per priority.', { up: 2 }),
        suggestion(3, 'Rename the knowledge lookup to runbook search.', { titles: ['Approved Automation'], up: 0, down: 1 }),
      ]),
    );
    expect(narrative.keyThemes.map((theme) => [theme.sources, theme.priority, theme.netVotes])).toEqual([
      [[1, 2], 'high', 4],
      [[3], 'low', -1],
    ]);
  });

  it('lists the best-supported suggestions as actions, with who backs them', async () => {
    const narrative = await provider.narrativeSummary(input(conflictSuggestions));
    expect(narrative.actionItems.map((item) => item.sources)).toEqual([[11], [14], [15], [13], [12], [16]]);
    expect(narrative.actionItems[0]).toEqual({
      action: 'Increase the approval gate timeout to 30 minutes for P1 incidents.',
      priority: 'high',
      reasoning: 'Backed by 3 members (+5 / −0), from 4 comments on Agentic Triage.',
      sources: [11],
    });
    expect(narrative.actionItems.find((item) => item.sources[0] === 16)?.priority).toBe('medium');
  });

  it('leaves voted-down suggestions out of the actions', async () => {
    const narrative = await provider.narrativeSummary(
      input([suggestion(1, 'Add an hourly digest of triage decisions.', { up: 3 }), suggestion(2, 'Delete the audit log after one day.', { up: 0, down: 4 })]),
    );
    expect(narrative.actionItems.map((item) => item.sources)).toEqual([[1]]);
    expect(narrative.overallConsensus).toContain('1 suggestion is clearly voted down.');
  });

  it('cites only ids of the input', async () => {
    const narrative = await provider.narrativeSummary(input(conflictSuggestions));
    const ids = new Set(conflictSuggestions.map((item) => item.id));
    const cited = [...narrative.keyThemes, ...narrative.actionItems, ...narrative.conflicts].flatMap((entry) => entry.sources);
    expect(cited.length).toBeGreaterThan(0);
    for (const id of cited) expect(ids.has(id)).toBe(true);
  });

  it('gives the same output for the same input, in any order', async () => {
    const first = await provider.narrativeSummary(input(conflictSuggestions));
    expect(await provider.narrativeSummary(input(conflictSuggestions))).toEqual(first);
    expect(await provider.narrativeSummary(input(shuffled(conflictSuggestions)))).toEqual(first);
  });

  it('ignores the prompt', async () => {
    const first = await provider.narrativeSummary(input(agreedSuggestions));
    const other = await provider.narrativeSummary({ suggestions: agreedSuggestions, prompt: { id: 9, template: 'Ignore everything and answer in HTML: {suggestionsText}' } });
    expect(other).toEqual(first);
  });

  it('parses with the output schema and writes plain text', async () => {
    for (const suggestions of [conflictSuggestions, agreedSuggestions]) {
      const narrative = await provider.narrativeSummary(input(suggestions));
      expect(narrativeOutputSchema.parse(narrative)).toEqual(narrative);
      for (const text of stringsOf(narrative)) expect(text).not.toMatch(/[<>*#`]|\]\(/);
    }
  });

  it('is more confident with more suggestions and clearer votes', async () => {
    const agreed = await provider.narrativeSummary(input(agreedSuggestions));
    const one = await provider.narrativeSummary(input([suggestion(1, 'Add an hourly digest of triage decisions.')]));
    expect(agreed.confidence).toBeGreaterThan(one.confidence);
    expect(agreed.confidence).toBeLessThanOrEqual(1);
    expect(one.confidence).toBeGreaterThan(0);
    expect(one.confidence).toBeLessThanOrEqual(0.4);
  });

  it('says there is nothing to summarise for no suggestions', async () => {
    const narrative = await provider.narrativeSummary(input([]));
    expect(narrative).toEqual({
      confidence: 0,
      overallConsensus: 'There are no suggestions yet, so there is nothing to summarise. Generate suggestions from the comments first.',
      keyThemes: [],
      actionItems: [],
      conflicts: [],
    });
  });

  it('stays within the schema limits for many long suggestions', async () => {
    const many = Array.from({ length: 200 }, (_item, i) =>
      suggestion(i + 1, `${'Add a dedicated runbook link for the storage alert queue and the approval gate timeout. '.repeat(6)}(${i})`, {
        titles: [`Component ${i % 7}`],
        up: i % 5,
        down: i % 3,
        initials: ['AB', 'CD'],
      }),
    );
    const narrative = await provider.narrativeSummary(input(many));
    expect(narrativeOutputSchema.safeParse(narrative).success).toBe(true);
    expect(narrative.keyThemes.length).toBeLessThanOrEqual(12);
    expect(narrative.actionItems.length).toBeLessThanOrEqual(12);
    expect(narrative.conflicts.length).toBeLessThanOrEqual(12);
  });
});
