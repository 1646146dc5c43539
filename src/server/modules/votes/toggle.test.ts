import { describe, expect, it } from 'vitest';
import type { VoteType } from '../../../common/contract/comments.js';
import { toggleVote, type VoteStore } from './toggle.js';

/** One member's vote held in memory, with every write recorded. */
function memoryStore(initial?: VoteType) {
  let vote = initial;
  const writes: string[] = [];
  const store: VoteStore = {
    removeIfSame: (voteType) => {
      if (vote !== voteType) return Promise.resolve(false);
      vote = undefined;
      writes.push('remove');
      return Promise.resolve(true);
    },
    put: (voteType) => {
      vote = voteType;
      writes.push(`put ${voteType}`);
      return Promise.resolve();
    },
  };
  return { store, writes, current: () => vote };
}

describe('toggleVote', () => {
  it('records a first vote', async () => {
    const { store, writes, current } = memoryStore();
    expect(await toggleVote(store, 'thumbs_up')).toBe('thumbs_up');
    expect(current()).toBe('thumbs_up');
    expect(writes).toEqual(['put thumbs_up']);
  });

  it('removes the vote when the same vote comes again', async () => {
    const { store, writes, current } = memoryStore('thumbs_down');
    expect(await toggleVote(store, 'thumbs_down')).toBeNull();
    expect(current()).toBeUndefined();
    expect(writes).toEqual(['remove']);
  });

  it('replaces the vote with the other one', async () => {
    const { store, writes, current } = memoryStore('thumbs_up');
    expect(await toggleVote(store, 'thumbs_down')).toBe('thumbs_down');
    expect(current()).toBe('thumbs_down');
    expect(writes).toEqual(['put thumbs_down']);
  });

  it('alternates on, off, on for the same vote sent again and again', async () => {
    const { store } = memoryStore();
    const answers = [];
    for (let call = 0; call < 5; call += 1) answers.push(await toggleVote(store, 'thumbs_up'));
    expect(answers).toEqual(['thumbs_up', null, 'thumbs_up', null, 'thumbs_up']);
  });
});
