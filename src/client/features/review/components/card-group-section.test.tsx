import { render, screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import type { CardGroup } from '../../../../common/contract/architecture';
import type { CommentCounts } from '../../../../common/contract/comments';
import { CardGroupSection } from './card-group-section';

const GROUP: CardGroup = {
  id: 'ingestion',
  title: 'Ingestion',
  description: 'Where alerts come in.',
  cards: [
    { id: 'alert-ingestion', title: 'Alert Ingestion', description: 'Takes alerts in.', highlights: ['One', 'Two', 'Three'] },
    { id: 'deduplication', title: 'Deduplication', description: 'Folds repeats.', highlights: ['One', 'Two', 'Three'] },
  ],
};

function renderGroup(counts: CommentCounts | undefined) {
  render(<CardGroupSection group={GROUP} counts={counts} onOpenComments={vi.fn()} />);
  return (title: string) => screen.getByRole('article', { name: title });
}

describe('the not-reviewed mark', () => {
  test('marks the cards without comments, from the counts the page already has', () => {
    // A component without comments is absent from the counts answer.
    const card = renderGroup({ components: { 'alert-ingestion': { open: 2, resolved: 0, decision: null } }, actions: { total: 0, done: 0 } });
    expect(within(card('Deduplication')).getByText('Not reviewed yet')).toBeTruthy();
    expect(within(card('Alert Ingestion')).queryByText('Not reviewed yet')).toBeNull();
    expect(within(card('Alert Ingestion')).getByText('2 comments')).toBeTruthy();
  });

  test('marks nothing while the counts load', () => {
    renderGroup(undefined);
    expect(screen.queryByText('Not reviewed yet')).toBeNull();
  });
});
