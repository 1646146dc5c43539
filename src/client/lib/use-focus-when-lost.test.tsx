import { render } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, test } from 'vitest';
import { useFocusWhenLost } from './use-focus-when-lost';

/** A row whose Done button goes away once it is done, as an action's does. */
function Row({ done }: { done: boolean }) {
  const row = useRef<HTMLDivElement>(null);
  useFocusWhenLost(done, () => row.current);
  return (
    <div ref={row} tabIndex={-1} data-testid="row">
      {!done && <button type="button">Mark done</button>}
    </div>
  );
}

describe('useFocusWhenLost', () => {
  test('moves the focus to the target when the focused control went with the change', () => {
    const { rerender, getByRole, getByTestId } = render(<Row done={false} />);
    getByRole('button').focus();
    rerender(<Row done />);
    expect(document.activeElement).toBe(getByTestId('row'));
  });

  test('leaves the focus where it is when it was elsewhere (a teammate changed it)', () => {
    const { rerender } = render(
      <>
        <input aria-label="Elsewhere" />
        <Row done={false} />
      </>,
    );
    const elsewhere = document.querySelector('input');
    elsewhere?.focus();
    rerender(
      <>
        <input aria-label="Elsewhere" />
        <Row done />
      </>,
    );
    expect(document.activeElement).toBe(elsewhere);
  });
});
