/**
 * The diagram's display mode: 'all' shows every box; 'step'
 * starts empty and each click reveals the next box of the content's step order. Choosing a mode
 * always starts it afresh, so switching resets the reveal.
 */
export type DiagramMode = 'all' | 'step';

export interface RevealState {
  mode: DiagramMode;
  /** How many boxes of the step order are shown in step mode. */
  revealed: number;
}

export type RevealAction = { type: 'set-mode'; mode: DiagramMode } | { type: 'reveal-next'; total: number } | { type: 'restart' };

export const initialRevealState: RevealState = { mode: 'all', revealed: 0 };

export function revealReducer(state: RevealState, action: RevealAction): RevealState {
  switch (action.type) {
    case 'set-mode':
      return state.mode === action.mode ? state : { mode: action.mode, revealed: 0 };
    case 'reveal-next':
      if (state.mode !== 'step' || state.revealed >= action.total) return state;
      return { ...state, revealed: state.revealed + 1 };
    case 'restart':
      return { ...state, revealed: 0 };
  }
}

/** The ids on screen: all of them, or the first `revealed` of the step order. */
export function visibleComponentIds(state: RevealState, allIds: readonly string[], stepOrder: readonly string[]): ReadonlySet<string> {
  return new Set(state.mode === 'all' ? allIds : stepOrder.slice(0, state.revealed));
}
