import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tip, TooltipLayer } from './tooltip';

function Controls() {
  const [pressed, setPressed] = useState(false);
  const [shown, setShown] = useState(true);
  return (
    <div>
      <button type="button" {...tip(pressed ? 'Your vote: select again to remove it' : 'Vote thumbs up')} onClick={() => {
          setPressed((value) => !value);
        }}>
        3<span className="sr-only"> thumbs up</span>
      </button>
      {shown && (
        <button type="button" aria-label="Delete comment" aria-describedby="hint" {...tip('Delete comment', 'bottom')}>
          x
        </button>
      )}
      <button
        type="button"
        onClick={() => {
          setShown(false);
        }}
      >
        Remove
      </button>
      <p id="hint">Deleting cannot be undone.</p>
    </div>
  );
}

/** Moves the fake clock on, letting React apply what the timers set. */
function advance(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

const hover = (element: Element) => fireEvent.pointerOver(element, { pointerType: 'mouse' });
const leave = (element: Element, to: Element = document.body) => fireEvent.pointerOut(element, { pointerType: 'mouse', relatedTarget: to });

describe('TooltipLayer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    render(
      <>
        <Controls />
        <TooltipLayer />
      </>,
    );
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a control’s tooltip 700 ms after the pointer reaches it, and describes the control by it', () => {
    const vote = screen.getByRole('button', { name: '3 thumbs up' });
    hover(vote);
    advance(650);
    expect(screen.queryByRole('tooltip')).toBeNull();
    advance(60);
    expect(screen.getByRole('tooltip').textContent).toBe('Vote thumbs up');
    expect(vote.getAttribute('aria-describedby')).toBe(screen.getByRole('tooltip').id);
  });

  it('never shows when the pointer leaves before the delay, and goes when it leaves after', () => {
    const vote = screen.getByRole('button', { name: '3 thumbs up' });
    hover(vote);
    advance(500);
    leave(vote);
    advance(1000);
    expect(screen.queryByRole('tooltip')).toBeNull();

    hover(vote);
    advance(700);
    expect(screen.getByRole('tooltip')).toBeTruthy();
    leave(vote);
    advance(150);
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(vote.hasAttribute('aria-describedby')).toBe(false);
  });

  it('stays while the pointer crosses from the control onto its tooltip', () => {
    const vote = screen.getByRole('button', { name: '3 thumbs up' });
    hover(vote);
    advance(700);
    const tooltip = screen.getByRole('tooltip');
    leave(vote, tooltip);
    hover(tooltip);
    advance(500);
    expect(screen.getByRole('tooltip')).toBe(tooltip);
  });

  it('opens the next tooltip at once when the pointer moves on within 300 ms', () => {
    const vote = screen.getByRole('button', { name: '3 thumbs up' });
    const remove = screen.getByRole('button', { name: 'Delete comment' });
    hover(vote);
    advance(700);
    leave(vote);
    advance(150);
    expect(screen.queryByRole('tooltip')).toBeNull();
    hover(remove);
    expect(screen.getByRole('tooltip').textContent).toBe('Delete comment');
    // Its own description is kept beside the tooltip's, and given back when the tooltip goes.
    expect(remove.getAttribute('aria-describedby')).toBe(`hint ${screen.getByRole('tooltip').id}`);
    leave(remove);
    advance(150);
    expect(remove.getAttribute('aria-describedby')).toBe('hint');

    // Long after, the delay applies again.
    advance(1000);
    hover(vote);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('closes a hover tooltip on Escape and lets the key reach the dialog below, so the panel closes too', () => {
    const onDocumentEscape = vi.fn();
    document.addEventListener('keydown', onDocumentEscape, true);
    try {
      hover(screen.getByRole('button', { name: '3 thumbs up' }));
      advance(700);
      expect(screen.getByRole('tooltip')).toBeTruthy();
      fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
      expect(screen.queryByRole('tooltip')).toBeNull();
      expect(onDocumentEscape).toHaveBeenCalledTimes(1);
    } finally {
      document.removeEventListener('keydown', onDocumentEscape, true);
    }
  });

  it('follows a label that changes while shown, and goes with a control that leaves the page', async () => {
    const vote = screen.getByRole('button', { name: '3 thumbs up' });
    hover(vote);
    advance(700);
    // A keyboard press changes the label without a pointer press (which would close the tooltip).
    fireEvent.click(vote);
    await act(async () => {
      await Promise.resolve();
    });
    expect(screen.getByRole('tooltip').textContent).toBe('Your vote: select again to remove it');

    const remove = screen.getByRole('button', { name: 'Delete comment' });
    leave(vote, remove);
    hover(remove);
    expect(screen.getByRole('tooltip').textContent).toBe('Delete comment');
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await act(async () => {
      await Promise.resolve();
    });
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('closes when the control is pressed, and never opens for touch', () => {
    const vote = screen.getByRole('button', { name: '3 thumbs up' });
    hover(vote);
    advance(700);
    fireEvent.pointerDown(vote, { pointerType: 'mouse' });
    expect(screen.queryByRole('tooltip')).toBeNull();

    advance(1000);
    fireEvent.pointerOver(vote, { pointerType: 'touch' });
    advance(1000);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
