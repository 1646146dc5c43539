import { describe, expect, it } from 'vitest';
import { initialsOf } from './names.js';

describe('initialsOf', () => {
  it('takes the first letters of the first and last names', () => {
    expect(initialsOf('Alice Archer')).toBe('AA');
    expect(initialsOf('  maria de la cruz ')).toBe('MC');
    expect(initialsOf('Cher')).toBe('C');
    expect(initialsOf('')).toBe('U');
    expect(initialsOf(undefined)).toBe('U');
  });
});
