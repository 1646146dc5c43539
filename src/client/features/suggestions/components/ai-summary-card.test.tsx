import { screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { routes } from '../../../../common/api';
import type { NarrativeSummary } from '../../../../common/contract/ai';
import { mockFetch } from '../../../test/mock-fetch';
import { renderWithApp } from '../../../test/render';
import { useNarrativeSummary } from '../api/get-narrative-summary';
import { CONSENSUS_CUT, KEY_ACTION_CUT } from '../text';
import { AiSummaryCard } from './ai-summary-card';

function narrativeOf(overrides: Partial<NarrativeSummary> = {}): NarrativeSummary {
  return {
    confidence: 0.724,
    overallConsensus: 'The team agrees ingestion should drop duplicates early.',
    keyThemes: [
      { theme: 'Deduplication', description: 'Drop repeats before enrichment.', priority: 'high', netVotes: 3, sources: [1] },
      { theme: 'Observability', description: '', priority: 'medium', netVotes: -1, sources: [2] },
      { theme: 'Cost', description: '', priority: 'low', netVotes: 0, sources: [] },
    ],
    actionItems: [
      { action: 'Add a dedupe window', priority: 'high', reasoning: 'Most votes.', sources: [1] },
      { action: 'Trace every alert', priority: 'medium', reasoning: '', sources: [2] },
      { action: 'Review the bill', priority: 'low', reasoning: '', sources: [] },
    ],
    conflicts: [],
    suggestionCount: 4,
    outcome: { decisions: [], settledSuggestionCount: 0, settledCommentCount: 0 },
    generatedBy: { provider: 'local', model: 'analyzer-1', promptVersion: 'v1', inputHash: 'b'.repeat(64), generatedAt: new Date().toISOString() },
    fallback: false,
    ...overrides,
  };
}

/** The suggestions page asks for the narrative only when there are suggestions; here there are. */
function CardOnPage() {
  return <AiSummaryCard narrative={useNarrativeSummary(true)} />;
}

async function renderCard(narrative: NarrativeSummary) {
  mockFetch().on(routes.suggestions.narrativeSummary, { body: narrative });
  const rendered = renderWithApp(<CardOnPage />, { toaster: false });
  await screen.findByText(/Confidence/);
  return rendered;
}

const card = () => screen.getByRole('region', { name: 'AI Summary' });

describe('AI summary card', () => {
  test.each([
    [0.724, '72%'],
    [0.995, '100%'],
    [1.7, '100%'],
    [-0.2, '0%'],
  ])('shows confidence %s as %s', async (confidence, percent) => {
    await renderCard(narrativeOf({ confidence }));
    expect(within(card()).getByText(percent)).toBeTruthy();
  });

  test('shows a loading placeholder until the narrative arrives', async () => {
    mockFetch().on(routes.suggestions.narrativeSummary, () => new Promise(() => undefined));
    renderWithApp(<CardOnPage />, { toaster: false });
    expect((await screen.findByRole('status')).textContent).toContain('Summarising the suggestions…');
    expect(card().getAttribute('aria-busy')).toBe('true');
  });

  test('shows a short consensus whole, with no Show more', async () => {
    await renderCard(narrativeOf());
    expect(screen.getByText('The team agrees ingestion should drop duplicates early.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Show more of the overall consensus/ })).toBeNull();
  });

  test(`cuts a consensus longer than ${CONSENSUS_CUT} characters, and Show more reveals all of it`, async () => {
    const long = `${'word '.repeat(30)}end of the consensus`;
    const { user } = await renderCard(narrativeOf({ overallConsensus: long }));
    const cutAt = `${long.slice(0, CONSENSUS_CUT).trimEnd()}…`;
    expect(screen.getByText(cutAt)).toBeTruthy();
    expect(screen.queryByText(/end of the consensus/)).toBeNull();

    const more = screen.getByRole('button', { name: 'Show more of the overall consensus' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    await user.click(more);
    expect(screen.getByText(long.trim())).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Show less of the overall consensus' }).getAttribute('aria-expanded')).toBe('true');
  });

  test('a consensus of exactly the cut length is not cut', async () => {
    const exact = 'x'.repeat(CONSENSUS_CUT);
    await renderCard(narrativeOf({ overallConsensus: exact }));
    expect(screen.getByText(exact)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Show more/ })).toBeNull();
  });

  test(`cuts a key action at ${KEY_ACTION_CUT} characters, never splitting an emoji`, async () => {
    const action = `${'a'.repeat(KEY_ACTION_CUT - 1)}🚨 and the rest`;
    await renderCard(narrativeOf({ actionItems: [{ action, priority: 'high', reasoning: '', sources: [1] }] }));
    const actions = screen.getByRole('list', { name: 'Key actions' });
    expect(within(actions).getByText(`${'a'.repeat(KEY_ACTION_CUT - 1)}🚨…`)).toBeTruthy();
    expect(within(actions).getByRole('button', { name: 'Show more of key action 1' })).toBeTruthy();
  });

  test('lists the top two themes and actions only, with their priority and net votes', async () => {
    await renderCard(narrativeOf());
    const themes = within(screen.getByRole('list', { name: 'Top themes' })).getAllByRole('listitem');
    expect(themes.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Deduplication.*High priority.*\+3 net votes/),
      expect.stringMatching(/^Observability.*Medium priority.*−1 net vote[^s]/),
    ]);
    const actions = within(screen.getByRole('list', { name: 'Key actions' })).getAllByRole('listitem');
    expect(actions.map((item) => item.textContent)).toEqual([expect.stringMatching(/^Add a dedupe window.*High priority/), expect.stringMatching(/^Trace every alert.*Medium priority/)]);
  });

  test('says so when there are no themes or actions yet', async () => {
    await renderCard(narrativeOf({ keyThemes: [], actionItems: [] }));
    expect(screen.getAllByText('No themes stand out yet.').length).toBeGreaterThan(0);
    expect(screen.queryByRole('list', { name: 'Top themes' })).toBeNull();
    expect(screen.getAllByText('No actions are proposed yet.').length).toBeGreaterThan(0);
  });

  test('the full sections start closed and show their counts', async () => {
    const { user } = await renderCard(narrativeOf());
    const themes = screen.getByRole('button', { name: 'Key themes (3)' });
    expect(themes.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('Drop repeats before enrichment.')).toBeNull();
    await user.click(themes);
    expect(themes.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('Drop repeats before enrichment.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Conflicts (0)' }));
    expect(screen.getByText('No conflicts: where the team voted, it pulled the same way.')).toBeTruthy();
  });

  test('lists each decision with its component, outcome, rationale and who made it, and what the reading left out', async () => {
    const decidedAt = new Date().toISOString();
    const decision = { id: 9, componentId: 'agentic-triage', outcome: 'needs_rework' as const, rationale: 'Severity changes need a human gate', commentIds: [3], suggestionIds: [], decidedBy: 'Avery Admin', decidedAt };
    await renderCard(narrativeOf({ outcome: { decisions: [decision], settledSuggestionCount: 2, settledCommentCount: 1 } }));
    const decided = screen.getByRole('list', { name: 'Decided so far' });
    const item = within(decided).getByRole('listitem');
    expect(item.textContent).toContain('Decision: Needs rework');
    expect(item.textContent).toContain('Severity changes need a human gate');
    expect(item.textContent).toContain('Avery Admin');
    expect(screen.getByText('This summary reads only what is still open: it leaves out 2 decided suggestions and 1 settled comment.')).toBeTruthy();
  });

  test('shows no decisions block while nothing is settled', async () => {
    await renderCard(narrativeOf());
    expect(screen.queryByText('Decided so far')).toBeNull();
  });

  test('names the local analyser as its maker', async () => {
    await renderCard(narrativeOf());
    expect(screen.getByText(/From 4 suggestions and their votes, by the local analyser,/)).toBeTruthy();
  });

  test('names the model as its maker for a remote provider', async () => {
    await renderCard(narrativeOf({ generatedBy: { ...narrativeOf().generatedBy, provider: 'openai', model: 'gpt-test' } }));
    expect(screen.getByText(/From 4 suggestions and their votes, by gpt-test,/)).toBeTruthy();
  });

  test('shows the fallback notice when another analyser answered', async () => {
    await renderCard(narrativeOf({ fallback: true, notice: 'OpenAI timed out; the local analyser answered.' }));
    expect(screen.getByRole('note').textContent).toBe('OpenAI timed out; the local analyser answered.');
  });

  test('a failure says why and Try again asks once more', async () => {
    const api = mockFetch().on(routes.suggestions.narrativeSummary, { status: 504, error: { code: 'AI_TIMEOUT', message: 'The AI took too long' } });
    const { user } = renderWithApp(<CardOnPage />, { toaster: false });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The summary could not be made');
    expect(alert.textContent).toContain('The AI took too long');

    api.on(routes.suggestions.narrativeSummary, { body: narrativeOf() });
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('72%')).toBeTruthy();
    expect(api.requests(routes.suggestions.narrativeSummary)).toHaveLength(2);
  });
});
