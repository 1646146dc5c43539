import { describe, expect, it } from 'vitest';
import { confidencePercent, cutText } from './text';

describe('cutText', () => {
  it('keeps text up to the limit whole', () => {
    expect(cutText('a'.repeat(120), 120)).toEqual({ shown: 'a'.repeat(120), cut: false });
    expect(cutText('', 120)).toEqual({ shown: '', cut: false });
  });

  it('cuts longer text at the limit and drops the trailing space of the cut', () => {
    const text = `${'word '.repeat(30)}end`;
    const { shown, cut } = cutText(text, 100);
    expect(cut).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(100);
    expect(text.startsWith(shown)).toBe(true);
    expect(shown.endsWith(' ')).toBe(false);
  });

  it('counts an emoji as one character and never splits it', () => {
    const { shown, cut } = cutText('😀'.repeat(5), 3);
    expect(cut).toBe(true);
    expect(shown).toBe('😀😀😀');
  });
});

describe('confidencePercent', () => {
  it('rounds to a whole percent and holds the range', () => {
    expect(confidencePercent(0.724)).toBe('72%');
    expect(confidencePercent(0.725)).toBe('73%');
    expect(confidencePercent(0)).toBe('0%');
    expect(confidencePercent(1)).toBe('100%');
    expect(confidencePercent(1.2)).toBe('100%');
    expect(confidencePercent(Number.NaN)).toBe('0%');
  });
});

