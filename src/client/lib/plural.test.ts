import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it('words one and many', () => {
    expect(plural(1, 'team comment')).toBe('1 team comment');
    expect(plural(42, 'team comment')).toBe('42 team comments');
    expect(plural(0, 'source')).toBe('0 sources');
  });
});
