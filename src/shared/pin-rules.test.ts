import { describe, expect, it } from 'vitest';
import { GUESSABLE_PINS, isGuessablePin } from './pin-rules.js';

describe('isGuessablePin', () => {
  it.each(['0000', '1111', '9999', '1234', '0123', '6789', '4321', '9876', '3210', '1212', '2580', '6969'])('refuses %s', (pin) => {
    expect(isGuessablePin(pin)).toBe(true);
  });

  it.each(['1357', '2468', '8024', '0741', '3579', '9753'])('accepts %s', (pin) => {
    expect(isGuessablePin(pin)).toBe(false);
  });

  it('lists at least 20 four-digit values', () => {
    expect(GUESSABLE_PINS.size).toBeGreaterThanOrEqual(20);
    for (const pin of GUESSABLE_PINS) expect(pin).toMatch(/^\d{4}$/);
  });
});
