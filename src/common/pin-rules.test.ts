import { describe, expect, it } from 'vitest';
import { GUESSABLE_PINS, isGuessablePin, isCompletePin, keepPinDigits } from './pin-rules.js';

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

describe('the PIN field rule', () => {
  it('keeps digits only, at most four', () => {
    expect(keepPinDigits('12-34 5')).toBe('1234');
    expect(keepPinDigits('a1b')).toBe('1');
  });

  it('calls a PIN complete at exactly four digits', () => {
    expect(isCompletePin('0000')).toBe(true);
    for (const pin of ['', '123', '12345', '12a4', '١٢٣٤']) expect(isCompletePin(pin)).toBe(false);
  });
});
