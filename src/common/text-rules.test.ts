import { describe, expect, it } from 'vitest';
import { hasBidiControls, hasForbiddenControls, withoutZeroWidth } from './text-rules.js';

describe('text rules', () => {
  it('refuses NUL and other controls, allowing line breaks and tabs only in multi-line text', () => {
    for (const text of ['a\u0000b', 'bell\u0007', 'esc\u001B[31m', 'del\u007F', 'c1\u0085']) {
      expect(hasForbiddenControls(text, { multiline: true }), JSON.stringify(text)).toBe(true);
      expect(hasForbiddenControls(text, { multiline: false }), JSON.stringify(text)).toBe(true);
    }
    expect(hasForbiddenControls('line one\nline two\r\n\tindented', { multiline: true })).toBe(false);
    expect(hasForbiddenControls('Ada\nLovelace', { multiline: false })).toBe(true);
    expect(hasForbiddenControls('Zoë Çelik — “quoted” 🚀', { multiline: false })).toBe(false);
  });

  it('refuses lone surrogates but not paired ones', () => {
    expect(hasForbiddenControls('x\uD800y', { multiline: true })).toBe(true);
    expect(hasForbiddenControls('x\uDC00y', { multiline: true })).toBe(true);
    expect(hasForbiddenControls('x\uD83D\uDE80y', { multiline: true })).toBe(false);
  });

  it('drops zero-width characters', () => {
    expect(withoutZeroWidth('\u200B\u200C\u200D\u2060\uFEFF')).toBe('');
    expect(withoutZeroWidth('a\u200Bb')).toBe('ab');
  });

  it('finds direction overrides, isolates and marks', () => {
    for (const text of ['Ada\u202ELovelace', '\u2066x\u2069', 'a\u200Fb', 'a\u061Cb']) expect(hasBidiControls(text)).toBe(true);
    expect(hasBidiControls('عربي English')).toBe(false);
  });
});
