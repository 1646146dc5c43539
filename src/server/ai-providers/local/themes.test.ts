import { describe, expect, it } from 'vitest';
import type { CommentForAnalysis } from '../provider.js';
import { Analyzer } from './analysis.js';
import { COMPONENTS, comment } from './fixtures/comments.js';
import { writtenAsName } from './runs.js';
import { themesOf, type Theme } from './themes.js';
import { loadReader } from './wink.js';

/** Themes by what comments are about, named in the team's words. */

const DEDUP = { componentId: 'event-deduplication', componentTitle: 'Deduplication & Suppression' };

async function themes(comments: readonly CommentForAnalysis[], maxThemes = 5, together: number[][] = []): Promise<Theme[]> {
  const analyzer = new Analyzer(await loadReader());
  const titleWords = analyzer.titleWords(comments[0]?.componentTitle ?? '');
  const analyses = comments.map((item) => analyzer.analyse(item.content, titleWords));
  return themesOf(analyzer, comments, analyses, titleWords, { maxThemes, minSize: 2, together });
}

describe('themesOf', () => {
  it('keeps two topics apart that share one word, and names each by the words its comments write', async () => {
    const comments = [
      comment(1, DEDUP, 'Ana Berg', 'Set the flap damping window for edge health checks to 3 minutes.'),
      comment(2, DEDUP, 'Ben Cole', 'A 10 minute flap damping window would hide a real PoP outage from the edge health checks.'),
      comment(3, DEDUP, 'Cy Diaz', 'The flap damping window of 60 seconds pages us on every reconvergence.'),
      comment(4, DEDUP, 'Dee Eng', 'Carrier maintenance notices arrive by email and nobody enters the maintenance window.'),
      comment(5, DEDUP, 'Eli Fox', 'Create the maintenance window from the carrier maintenance notices automatically.'),
      comment(6, DEDUP, 'Fay Gray', 'When a maintenance window suppresses an event from the carrier, record the notice in the audit log.'),
    ];
    const found = await themes(comments);
    expect(found.map((theme) => theme.members).sort()).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    const labels = found.map((theme) => theme.label.toLowerCase());
    expect(labels).toContain('flap damping window');
    expect(labels.some((label) => label.includes('maintenance'))).toBe(true);
    // Never one generic word.
    for (const label of labels) expect(label.split(' ').length).toBeGreaterThan(1);
  });

  it('makes no theme of two comments that share one word only, and one of two that share two', async () => {
    // Each keeps two weighted terms: its own topic and 'hour'.
    const oneWord = [comment(1, DEDUP, 'Ana Berg', 'Approvals? Hours.'), comment(2, DEDUP, 'Ben Cole', 'Reconvergence? Hours.')];
    expect(await themes(oneWord)).toEqual([]);
    const twoWords = [comment(1, DEDUP, 'Ana Berg', 'Approvals? Hours.'), comment(2, DEDUP, 'Ben Cole', 'Approvals stall for hours.')];
    expect((await themes(twoWords)).map((theme) => theme.members)).toEqual([[0, 1]]);
  });

  it('puts a reply by name with the comment it answers, though they share no word', async () => {
    const at = (minutes: number) => Date.UTC(2026, 0, 12, 9, minutes);
    const comments = [
      { ...comment(1, DEDUP, 'Lukas Brandt', 'Put a cap on automated restarts: at most two per site per day.'), createdAt: at(1) },
      { ...comment(2, DEDUP, 'Mira Holt', 'Shorten the flap damping window to three minutes for edge checks.'), createdAt: at(2) },
      { ...comment(3, DEDUP, 'Omar Reyes', 'The flap damping window of ten minutes hides real edge outages.'), createdAt: at(3) },
      { ...comment(4, DEDUP, 'Pia Stone', 'Agree with Lukas. After that a human takes over.'), createdAt: at(4) },
    ];
    const found = await themes(comments);
    expect(found.find((theme) => theme.members.includes(0))?.members).toEqual([0, 3]);
    // Without the name the reply is no theme of the capped restarts.
    const unnamed = await themes(comments.map((item) => (item.id === 4 ? { ...item, content: 'After that a human takes over.' } : item)));
    expect(unnamed.some((theme) => theme.members.includes(0) && theme.members.includes(3))).toBe(false);
  });

  it('links a reply that answers a teammate by name, not a comment that only mentions one', async () => {
    const at = (minutes: number) => Date.UTC(2026, 0, 12, 9, minutes);
    const comments = [
      { ...comment(1, DEDUP, 'Lukas Brandt', 'Put a cap on automated restarts: at most two per site per day.'), createdAt: at(1) },
      { ...comment(2, DEDUP, 'Mira Holt', 'Shorten the flap damping window to three minutes for edge checks.'), createdAt: at(2) },
      { ...comment(3, DEDUP, 'Omar Reyes', 'The flap damping window of ten minutes hides real edge outages.'), createdAt: at(3) },
      { ...comment(4, DEDUP, 'Pia Stone', 'Photos from the open day are up on the intranet; Lukas is in most of them.'), createdAt: at(4) },
    ];
    const mentioned = await themes(comments);
    expect(mentioned.some((theme) => theme.members.includes(3))).toBe(false);
    for (const answer of ['Lukas is right, after that a human takes over.', "I'd go with Lukas here: after that a human takes over.", "Lukas's rule is enough: after that a human takes over."]) {
      const found = await themes(comments.map((item) => (item.id === 4 ? { ...item, content: answer } : item)));
      expect(found.find((theme) => theme.members.includes(0))?.members).toEqual([0, 3]);
    }
  });

  it('never links two comments by the name of a teammate they both mention', async () => {
    const comments = [
      comment(1, DEDUP, 'Ana Berg', 'Cross-train engineers on the backup site, so Kwame is not always rung at night.'),
      comment(2, DEDUP, 'Ben Cole', 'The charity run needs marshals at night if Kwame organises it.'),
      comment(3, DEDUP, 'Kwame Mensah', 'Escalate to the secondary after five minutes without an acknowledgement.'),
      comment(4, DEDUP, 'Cy Diaz', 'Shorten the flap damping window to three minutes for edge checks.'),
      comment(5, DEDUP, 'Dee Eng', 'The flap damping window of ten minutes hides real edge outages.'),
    ];
    const found = await themes(comments);
    expect(found.map((theme) => theme.members)).toEqual([[3, 4]]);
  });

  it('puts a reply that opens by answering the comment before it with that comment, though they share no word', async () => {
    const at = (minutes: number) => Date.UTC(2026, 0, 12, 9, minutes);
    const comments = [
      { ...comment(1, DEDUP, 'Ana Berg', 'Shorten the flap damping window to three minutes for edge checks.'), createdAt: at(1) },
      { ...comment(2, DEDUP, 'Ben Cole', 'The flap damping window of ten minutes hides real edge outages.'), createdAt: at(2) },
      { ...comment(3, DEDUP, 'Cy Diaz', 'Put a cap on automated restarts: at most two restarts per site per day.'), createdAt: at(3) },
      { ...comment(4, DEDUP, 'Dee Eng', 'Restarts without a cap took one site down eleven times last night.'), createdAt: at(4) },
      { ...comment(5, DEDUP, 'Eli Fox', 'Same for the carrier links: a human decides after that.'), createdAt: at(5) },
    ];
    const found = await themes(comments);
    expect(found.find((theme) => theme.members.includes(3))?.members).toEqual([2, 3, 4]);
    // Without the opening it answers nobody.
    const plain = await themes(comments.map((item) => (item.id === 5 ? { ...item, content: 'For the carrier links, a human decides after that.' } : item)));
    expect(plain.some((theme) => theme.members.includes(4))).toBe(false);
  });

  it('never links a reply to the comment before it when that one shares no word with the discussion', async () => {
    const at = (minutes: number) => Date.UTC(2026, 0, 12, 9, minutes);
    const comments = [
      { ...comment(1, DEDUP, 'Cy Diaz', 'Put a cap on automated restarts: at most two restarts per site per day.'), createdAt: at(1) },
      { ...comment(2, DEDUP, 'Dee Eng', 'Restarts without a cap took one site down eleven times last night.'), createdAt: at(2) },
      { ...comment(3, DEDUP, 'Fay Gray', 'The quiz at the Red Lion moved to Friday, bring your own team name.'), createdAt: at(3) },
      { ...comment(4, DEDUP, 'Eli Fox', 'Same for the carrier links: a human decides after that.'), createdAt: at(4) },
    ];
    const found = await themes(comments);
    expect(found.map((theme) => theme.members)).toEqual([[0, 1]]);
  });

  it('compares words by their stem, so that other forms of one word link two comments', async () => {
    const comments = [
      comment(1, DEDUP, 'Ana Berg', 'Escalations stall because the runbooks are stale.'),
      comment(2, DEDUP, 'Ben Cole', 'Escalate at once when the runbook fails.'),
      comment(3, DEDUP, 'Cy Diaz', 'Shorten the flap damping window to three minutes for edge checks.'),
      comment(4, DEDUP, 'Dee Eng', 'The flap damping window of ten minutes hides real edge outages.'),
    ];
    const analyzer = new Analyzer(await loadReader());
    const [escalations, escalate] = comments.map((item) => analyzer.analyse(item.content, analyzer.titleWords(item.componentTitle)).sentences[0]?.stems);
    // The lemmatiser leaves 'escalations' and 'runbooks' as they are; their stems are those of 'escalate' and 'runbook'.
    expect(escalations?.get('escalations')).toBeDefined();
    expect(escalations?.get('escalations')).toBe(escalate?.get('escalate'));
    expect(escalations?.get('runbooks')).toBe(escalate?.get('runbook'));
    const found = await themes(comments);
    expect(found.map((theme) => theme.members).sort()).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(found.find((theme) => theme.members.includes(0))?.label).not.toMatch(/escal\b/i);
  });

  it('never names a theme by a word that says nothing alone, such as the request verb its comments share', async () => {
    const comments = [
      comment(1, DEDUP, 'Ana Berg', 'We need an owner for each suppression rule.'),
      comment(2, DEDUP, 'Ben Cole', 'Every rota needs a named owner before go-live.'),
      comment(3, DEDUP, 'Cy Diaz', 'Someone needs to own the escalation matrix; we need that owner written down.'),
      comment(4, DEDUP, 'Dee Eng', 'Shorten the flap damping window to three minutes.'),
      comment(5, DEDUP, 'Eli Fox', 'The flap damping window hides real outages.'),
    ];
    const found = await themes(comments);
    const owners = found.find((theme) => theme.members.includes(0));
    expect(owners?.members).toEqual([0, 1, 2]);
    expect(owners?.label.toLowerCase()).toContain('owner');
    expect(found.map((theme) => theme.label.toLowerCase())).not.toContain('need');
  });

  it('names a reply and the point it answers by the weightiest phrase of several words, not by the one word they share', async () => {
    const NORMALISATION = { componentId: 'normalisation', componentTitle: 'Event Normalisation' };
    const at = (minutes: number) => Date.UTC(2026, 0, 12, 9, minutes);
    const comments = [
      ['Nadia Haddad', 'Keep the original severity string from each tool next to the normalised severity. Datadog P2, CloudWatch ALARM and Splunk high all map to one level today.'],
      ['Tom Baker', 'Drop the heartbeat events before they reach the correlation engine; they are half of our volume.'],
      ['Ines Sousa', '+1 Nadia, it is one extra field and it makes the severity mapping auditable.'],
      ['Raj Patel', 'Heartbeat events from the synthetic checks should be dropped at the collector, not in the engine.'],
    ].map(([author = '', text = ''], i) => ({ ...comment(i + 1, NORMALISATION, author, text), createdAt: at(i + 1) }));
    const found = await themes(comments);
    expect(found.find((theme) => theme.members.includes(0))).toEqual({ label: 'Severity mapping', members: [0, 2] });
  });

  it('names a theme by one word only when its comments write it as a name', () => {
    expect(writtenAsName('netbox', ['The NetBox records are stale.'])).toBe(true);
    expect(writtenAsName('cmdb', ['cmdb or CMDB, either way'])).toBe(true);
    expect(writtenAsName('splunk', ['We saw it in the Splunk searches.'])).toBe(true);
    expect(writtenAsName('sev1', ['a sev1 at night'])).toBe(true);
    // A capital where a sentence starts says nothing.
    expect(writtenAsName('fix', ['Fix it first. The fix is always the same.'])).toBe(false);
    expect(writtenAsName('hold', ['"Hold any alert for 3 minutes," she said.'])).toBe(false);
  });

  it('keeps the sides of one question together though they share few words, and lets others join them', async () => {
    const comments = [
      comment(1, COMPONENTS.triage, 'Ana Berg', 'Page the owning on-call straight away when the service desk declares from customer calls.'),
      comment(2, COMPONENTS.triage, 'Ben Cole', "I'd rather it opened a ServiceNow ticket only and paged nobody until a monitor confirms."),
      comment(3, COMPONENTS.triage, 'Cy Diaz', 'Paging the owning on-call for customer calls is what the night shift hates most.'),
      comment(4, COMPONENTS.triage, 'Dee Eng', 'The declare form needs the affected service picked from the catalogue.'),
      comment(5, COMPONENTS.triage, 'Eli Fox', 'Make the service picker on the declare form searchable by the names customers use.'),
    ];
    const apart = await themes(comments);
    expect(apart.some((theme) => theme.members.includes(0) && theme.members.includes(1))).toBe(false);
    const found = await themes(comments, 5, [[0, 1]]);
    expect(found.map((theme) => theme.members).sort()).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
  });

  it('shows two loosely merged topics apart while there is room for more themes', async () => {
    const comments = [
      comment(1, COMPONENTS.triage, 'Ana Berg', 'Every hypothesis should carry its Splunk query as a runnable link, not a screenshot of the evidence.'),
      comment(2, COMPONENTS.triage, 'Ben Cole', 'Attach the Splunk query behind each hypothesis so we can rerun the evidence ourselves.'),
      comment(3, COMPONENTS.triage, 'Cy Diaz', 'Testing one hypothesis for evidence, the agents ran 400 Splunk queries in ten minutes and the search heads fell over.'),
      comment(4, COMPONENTS.triage, 'Dee Eng', 'Give the agents a budget of Splunk queries per incident so the search heads survive.'),
      comment(5, COMPONENTS.triage, 'Eli Fox', 'The declare form needs the affected service picked from the catalogue.'),
      comment(6, COMPONENTS.triage, 'Fay Gray', 'Make the service picker on the declare form searchable by the names customers use.'),
    ];
    // With room for one theme, the loose merge of the query links and the search load stands.
    expect((await themes(comments, 1)).map((theme) => theme.members)).toEqual([[0, 1, 2, 3]]);
    expect((await themes(comments, 5)).map((theme) => theme.members).sort()).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
  });

  it('leaves a comment about something else out of every theme', async () => {
    const comments = [
      comment(1, COMPONENTS.triage, 'Ana Berg', 'The approval gate timeout should escalate to the duty manager.'),
      comment(2, COMPONENTS.triage, 'Ben Cole', 'Increase the approval gate timeout to 30 minutes at night.'),
      comment(3, COMPONENTS.triage, 'Cy Diaz', 'Is the car park on level two closed again next week?'),
    ];
    const found = await themes(comments);
    expect(found.map((theme) => theme.members)).toEqual([[0, 1]]);
  });

  it('reads a large component through its most voted comments and answers indexes of the input', async () => {
    const many = Array.from({ length: 400 }, (_unused, i) =>
      comment(i + 1, COMPONENTS.triage, `Member ${i % 9}`, i % 2 === 0 ? `Show the alternative assignment groups with confidence scores, case ${i}.` : `The approval gate timeout needs an escalation path, case ${i}.`, {
        up: i % 7,
      }),
    );
    const found = await themes(many);
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const theme of found) {
      for (const i of theme.members) expect(i).toBeLessThan(many.length);
      const kinds = new Set(theme.members.map((i) => (many[i]?.content.includes('assignment') ? 'groups' : 'gate')));
      expect(kinds.size).toBe(1);
    }
  });

  // With room for one theme, a loose merge stands (as in a busy discussion): these merge at all or not.
  it('keeps apart two questions whose comments share a compound\'s head word with other modifiers', async () => {
    const COSTS = { componentId: 'platform-costs', componentTitle: 'Platform Costs' };
    const pairs = [
      [
        'Checkout burns its error budget in the first week of each month.',
        'By the second week of a month the error budget is zero and nobody slows down.',
        'Debug logging fills the storage budget within a week, every month.',
        'Each month the storage budget runs dry after a week of verbose tracing.',
      ],
      [
        'The retention policy for chat exports changed twice this year without telling anyone.',
        'Tell the whole rota whenever the retention policy for chat exports changes.',
        'The escalation policy for database pages changed twice this year without telling anyone.',
        'Whenever the escalation policy for database pages changes, tell the rota.',
      ],
      [
        'The approval gate holds every change for a day.',
        'Drop the approval gate for standard changes.',
        'The quality gate holds every change when one test flakes.',
        'Make the quality gate ignore known flaky tests for standard changes.',
      ],
    ];
    for (const texts of pairs) {
      const comments = texts.map((text, i) => comment(i + 1, COSTS, `Member ${i}`, text));
      expect((await themes(comments, 1)).map((theme) => theme.members)).toEqual([[0, 1]]);
      expect((await themes(comments)).map((theme) => theme.members).sort()).toEqual([
        [0, 1],
        [2, 3],
      ]);
    }
  });

  it('makes no theme of comments that share only the words the whole discussion uses', async () => {
    const PAGING = { componentId: 'paging', componentTitle: 'Paging' };
    const pairs = [
      [
        'The model flags every incident alert for the network team as a duplicate.',
        'Duplicates flagged by the model hide real alerts from the team during an incident.',
        'The AI summary of an incident leaves out which team acknowledged the alert.',
        'Make the AI summary say which team took each alert during the incident.',
      ],
      [
        'Each runbook step for an alert should name the team that owns it during an incident.',
        'A runbook step without an owning team stalls every incident alert.',
        'The incident channel gets a message for every alert, so the team mutes it.',
        'Post one message per incident in the channel, not one per alert, or the team mutes it.',
      ],
    ];
    for (const texts of pairs) {
      const comments = texts.map((text, i) => comment(i + 1, PAGING, `Member ${i}`, text));
      expect((await themes(comments, 1)).map((theme) => theme.members)).toEqual([[0, 1]]);
    }
  });

  it('holds one question together when its comments put it in different words', async () => {
    const PAGING = { componentId: 'paging', componentTitle: 'Paging' };
    const comments = [
      comment(1, PAGING, 'Ana Berg', 'Disk warnings that clear themselves within minutes should never wake the on-call engineer.'),
      comment(2, PAGING, 'Ben Cole', 'Paging someone at 3am for a disk that frees its own space a minute later is pointless.'),
      comment(3, PAGING, 'Cy Diaz', 'Only page for disk space when usage stays above 90% for ten minutes; log the rest as warnings.'),
      comment(4, PAGING, 'Dee Eng', 'The vendor contact for the bridge changes every quarter; keep it current.'),
      comment(5, PAGING, 'Eli Fox', 'Put the vendor contact on the bridge page so nobody hunts for it.'),
    ];
    const found = await themes(comments);
    expect(found.find((theme) => theme.members.includes(0))?.members).toEqual([0, 1, 2]);
    // Two comments on one budget that name it differently ('error budget', 'the budget') are one question.
    const budget = [
      comment(1, PAGING, 'Ana Berg', 'Checkout burns its error budget in the first week of each month.'),
      comment(2, PAGING, 'Ben Cole', 'Once checkout has burnt the budget, freeze its releases for the month.'),
      comment(3, PAGING, 'Cy Diaz', 'The vendor contact for the bridge changes every quarter; keep it current.'),
      comment(4, PAGING, 'Dee Eng', 'Put the vendor contact on the bridge page so nobody hunts for it.'),
    ];
    expect((await themes(budget)).map((theme) => theme.members).sort()).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });

  it('names themes in noun phrases a lead would write, never a verb or one generic word', async () => {
    const OPS = { componentId: 'ops', componentTitle: 'Operations' };
    const bridge = ['Rotate the bridge lead weekly between the two sites.', 'The bridge lead should rotate between the sites every week.'];
    const discussions: Array<{ texts: string[]; labels: string[] }> = [
      {
        // 'answers' is a verb here: no 'Intake form answers'.
        texts: ['The intake form answers nothing about customer impact.', 'The intake form answers who called, not what broke.', 'Add a customer impact field to the intake form.', ...bridge],
        labels: ['Intake form', 'Bridge lead'],
      },
      {
        // Nor 'Team mutes'.
        texts: [
          'Each runbook step for an alert should name the team that owns it during an incident.',
          'A runbook step without an owning team stalls every incident alert.',
          'The incident channel gets a message for every alert, so the team mutes it.',
          'Post one message per incident in the channel, not one per alert, or the team mutes it.',
        ],
        labels: ['Runbook step', 'Incident channel'],
      },
      {
        texts: ['The failover runbook is stale.', 'Nobody has updated that stale runbook since the migration.', ...bridge],
        labels: ['Failover runbook', 'Bridge lead'],
      },
      {
        texts: [
          'The scheduler skips jobs during daylight saving changes.',
          'Last March the scheduler skipped the payroll export at the clock change.',
          'Run the payroll export twice around the clock change.',
          'Mirror the Grafana dashboards to the DR site.',
          'The DR site has no copy of the Grafana dashboards today.',
        ],
        labels: ['Clock change', 'DR site'],
      },
    ];
    for (const { texts, labels } of discussions) {
      const found = await themes(texts.map((text, i) => comment(i + 1, OPS, `Member ${i}`, text)));
      expect(found.map((theme) => theme.label)).toEqual(labels);
    }
    // One generic word is all two comments share: named by the words around it in the most voted one.
    const rollback = await themes([
      comment(1, OPS, 'Ana Berg', 'Who approves the rollback?'),
      comment(2, OPS, 'Ben Cole', 'The rollback of the payments database needs approval from two people.', { up: 2 }),
      ...bridge.map((text, i) => comment(i + 3, OPS, `Member ${i}`, text)),
    ]);
    const label = rollback.find((theme) => theme.members.includes(0))?.label ?? '';
    expect(label.split(' ').length).toBeGreaterThan(1);
    expect(label.toLowerCase()).toContain('approval');
  });
});
