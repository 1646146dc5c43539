import { describe, expect, it } from 'vitest';
import { buildPath, buildUrl } from './route.js';

describe('buildPath and buildUrl', () => {
  it('fills every :name segment, percent-encoded', () => {
    expect(buildPath('/api/comments/:componentId/with-votes', { componentId: 'a b/c' })).toBe('/api/comments/a%20b%2Fc/with-votes');
    expect(buildPath('/api/comments/:id/vote', { id: 7 })).toBe('/api/comments/7/vote');
  });

  it('appends the query without undefined fields, and nothing for an empty one', () => {
    expect(buildUrl('/api/comments/:componentId/summary', { componentId: 'x' }, { title: 'A & B', other: undefined })).toBe('/api/comments/x/summary?title=A+%26+B');
    expect(buildUrl('/api/comments/counts', undefined, { title: undefined })).toBe('/api/comments/counts');
  });

  it('refuses a path whose segment has no value', () => {
    expect(() => buildUrl('/api/comments/:id', {}, undefined)).toThrow(':id');
  });
});
