import { useEffect, useRef } from 'react';

/**
 * When `state` changes and the control that had the focus went with the change (a button that
 * resolved a comment, or marked an action done), moves the focus to `target(state)`, so a keyboard
 * user stays where they were. Focus held anywhere else is never taken: a teammate's change arriving
 * live moves nothing.
 */
export function useFocusWhenLost<T>(state: T, target: (state: T) => HTMLElement | null): void {
  const previous = useRef(state);
  // Runs again for a new `target` too, but only a change of state moves the focus.
  useEffect(() => {
    if (Object.is(state, previous.current)) return;
    previous.current = state;
    const focused = document.activeElement;
    if (focused === null || focused === document.body || !focused.isConnected) target(state)?.focus();
  }, [state, target]);
}
