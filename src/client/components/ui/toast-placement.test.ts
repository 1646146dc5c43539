import { describe, expect, it } from 'vitest';
import { placeToast } from './toast-placement';

// A phone of 390×844 with a full-width stack 96 px tall, under a header whose bottom edge is at 72 px.
const phone = { stack: { left: 0, right: 390, height: 96 }, viewportHeight: 844, headerBottom: 72 };
const box = (top: number, bottom: number, left = 20, right = 120) => ({ top, bottom, left, right });

describe('where a toast sits', () => {
  it('stays at the bottom, clear of the header, when nothing has focus or the focus is elsewhere', () => {
    expect(placeToast({ ...phone, focused: null })).toEqual({ edge: 'bottom' });
    expect(placeToast({ ...phone, focused: box(20, 60) })).toEqual({ edge: 'bottom' });
    expect(placeToast({ ...phone, focused: box(700, 740) })).toEqual({ edge: 'bottom' });
  });

  it('moves under the header of the layer on top when it would hide the focused control', () => {
    expect(placeToast({ ...phone, focused: box(760, 796) })).toEqual({ edge: 'top', offset: 72 });
    // Partly under the band is still visible, so it may stay.
    expect(placeToast({ ...phone, focused: box(730, 770) })).toEqual({ edge: 'bottom' });
  });

  it('stays at the bottom when the focused control is beside the stack, as on a wide screen', () => {
    const wide = { stack: { left: 1020, right: 1440, height: 96 }, viewportHeight: 900, headerBottom: 64 };
    expect(placeToast({ ...wide, focused: box(820, 860, 400, 600) })).toEqual({ edge: 'bottom' });
    expect(placeToast({ ...wide, focused: box(820, 860, 1100, 1200) })).toEqual({ edge: 'top', offset: 64 });
  });

  it('never sits above the top of the screen when the header has scrolled away', () => {
    expect(placeToast({ ...phone, headerBottom: -200, focused: box(780, 820) })).toEqual({ edge: 'top', offset: 0 });
  });
});
