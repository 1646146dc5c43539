import { describe, expect, it } from 'vitest';
import { initialsOf, isValidFullName } from './names.js';

describe('initialsOf', () => {
  it('takes the first letters of the first and last names', () => {
    expect(initialsOf('Alice Archer')).toBe('AA');
    expect(initialsOf('  maria de la cruz ')).toBe('MC');
    expect(initialsOf('Cher')).toBe('C');
    expect(initialsOf('')).toBe('U');
    expect(initialsOf(undefined)).toBe('U');
  });
});

describe('isValidFullName', () => {
  it('accepts letters, marks, spaces, apostrophes, dots and hyphens, and surrounding whitespace', () => {
    for (const name of ['Ada Lovelace', 'Zoë Çelik', "Seán O'Brien", 'J. R. Smith-Jones', '  Ada   Lovelace \n']) {
      expect(isValidFullName(name), JSON.stringify(name)).toBe(true);
    }
  });

  it('refuses control characters inside a name, even ones that whitespace collapsing would hide', () => {
    for (const name of ['Ada\u0000Lovelace', 'Ada\tLovelace', 'Ada\nLovelace', 'Ada\u0085Lovelace', 'Ada\uD800']) {
      expect(isValidFullName(name), JSON.stringify(name)).toBe(false);
    }
  });

  it('refuses direction overrides, isolates and zero-width characters, and a name of only those', () => {
    for (const name of ['Ada\u202ELovelace', '\u2067Ada\u2069', 'Ada\u200BLovelace', '\u200B', '\uFEFF']) {
      expect(isValidFullName(name), JSON.stringify(name)).toBe(false);
    }
  });
});
