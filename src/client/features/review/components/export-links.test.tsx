import { render, screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { ExportLinks } from './export-links';

describe('the export links', () => {
  test('download the Markdown and each CSV', () => {
    render(<ExportLinks />);
    const markdown = screen.getByRole('link', { name: 'Markdown' });
    expect(markdown.getAttribute('href')).toBe('/api/export/review.md');
    expect(markdown.hasAttribute('download')).toBe(true);
    for (const kind of ['comments', 'suggestions', 'actions']) {
      const csv = screen.getByRole('link', { name: kind });
      expect(csv.getAttribute('href')).toBe(`/api/export/review.csv?kind=${kind}`);
      expect(csv.hasAttribute('download')).toBe(true);
    }
  });

  test('make every link a target of at least 24 px in height, also where the line wraps on a phone', () => {
    render(<ExportLinks />);
    // happy-dom lays nothing out: the class that gives the height (min-h-6, 1.5rem) stands for it;
    // the browser test e2e/outcomes-phone-keyboard.test.ts measures the boxes on a phone.
    for (const link of screen.getAllByRole('link')) expect(link.className.split(' ')).toEqual(expect.arrayContaining(['inline-flex', 'min-h-6']));
  });

  test('open the printable report in a new tab, saying so to a screen reader', () => {
    render(<ExportLinks />);
    const report = screen.getByRole('link', { name: 'Printable report (opens in a new tab)' });
    expect(report.getAttribute('href')).toBe('/api/export/review.html');
    expect(report.getAttribute('target')).toBe('_blank');
    expect(report.getAttribute('rel')).toBe('noopener');
    // Opened, not downloaded.
    expect(report.hasAttribute('download')).toBe(false);
  });
});
