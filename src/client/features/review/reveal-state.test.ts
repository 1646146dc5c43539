import { describe, expect, it } from 'vitest';
import { initialRevealState, revealReducer, visibleComponentIds, type RevealState } from './reveal-state';

const all = ['a', 'b', 'c'];
const order = ['c', 'a', 'b'];

describe('diagram reveal (grows by one box per click in step mode, resets on a mode switch)', () => {
  it('shows every box in Display All', () => {
    expect([...visibleComponentIds(initialRevealState, all, order)]).toEqual(all);
  });

  it('starts step mode empty and reveals the step order one click at a time, up to the last box', () => {
    let state: RevealState = revealReducer(initialRevealState, { type: 'set-mode', mode: 'step' });
    expect([...visibleComponentIds(state, all, order)]).toEqual([]);
    const seen: string[][] = [];
    for (let click = 0; click < 5; click++) {
      state = revealReducer(state, { type: 'reveal-next', total: order.length });
      seen.push([...visibleComponentIds(state, all, order)]);
    }
    expect(seen).toEqual([['c'], ['c', 'a'], ['c', 'a', 'b'], ['c', 'a', 'b'], ['c', 'a', 'b']]);
  });

  it('resets the reveal whenever the mode changes, and only then', () => {
    let state = revealReducer(initialRevealState, { type: 'set-mode', mode: 'step' });
    state = revealReducer(state, { type: 'reveal-next', total: 3 });
    state = revealReducer(state, { type: 'reveal-next', total: 3 });
    expect(revealReducer(state, { type: 'set-mode', mode: 'step' })).toBe(state);
    state = revealReducer(state, { type: 'set-mode', mode: 'all' });
    expect(state).toEqual({ mode: 'all', revealed: 0 });
    expect(revealReducer(state, { type: 'reveal-next', total: 3 })).toBe(state);
    state = revealReducer(state, { type: 'set-mode', mode: 'step' });
    expect([...visibleComponentIds(state, all, order)]).toEqual([]);
    state = revealReducer(revealReducer(state, { type: 'reveal-next', total: 3 }), { type: 'restart' });
    expect(state).toEqual({ mode: 'step', revealed: 0 });
  });
});
