import { describe, expect, it } from 'vitest';
import { GUESSABLE_PINS, guessablePinReason, isCompletePin, keepPinDigits, PIN_REASONS } from './pin-rules.js';

describe('guessablePinReason', () => {
  it.each([
    ['0000', PIN_REASONS.repeatedDigit],
    ['9999', PIN_REASONS.repeatedDigit],
    ['1234', PIN_REASONS.run],
    ['4321', PIN_REASONS.run],
    ['6789', PIN_REASONS.run],
    ['1940', PIN_REASONS.year],
    ['1984', PIN_REASONS.year],
    ['2020', PIN_REASONS.year],
    ['2039', PIN_REASONS.year],
    ['4545', PIN_REASONS.repeatedPair],
    ['0101', PIN_REASONS.repeatedPair],
    ['6969', PIN_REASONS.repeatedPair],
    ['1221', PIN_REASONS.mirroredPair],
    ['7007', PIN_REASONS.mirroredPair],
    ['2580', PIN_REASONS.keypadLine],
    ['0852', PIN_REASONS.keypadLine],
    ['7410', PIN_REASONS.keypadLine],
    ['0147', PIN_REASONS.keypadLine],
    ['8520', PIN_REASONS.keypadLine],
    ['0258', PIN_REASONS.keypadLine],
    ['9630', PIN_REASONS.keypadLine],
    ['0369', PIN_REASONS.keypadLine],
    ['1470', PIN_REASONS.keypadLine],
    ['0741', PIN_REASONS.keypadLine],
    ['3690', PIN_REASONS.keypadLine],
    ['0963', PIN_REASONS.keypadLine],
    ['1357', PIN_REASONS.run],
    ['3579', PIN_REASONS.run],
    ['8642', PIN_REASONS.run],
    ['2468', PIN_REASONS.run],
    ['1004', PIN_REASONS.common],
    ['1122', PIN_REASONS.common],
  ])('refuses %s with its reason', (pin, reason) => {
    expect(guessablePinReason(pin)).toBe(reason);
  });

  it('refuses every year from 1940 to 2039', () => {
    for (let year = 1940; year <= 2039; year += 1) expect(guessablePinReason(String(year)), String(year)).toBeDefined();
  });

  it.each(['8024', '7294', '3816', '5062', '9173', '1939', '2040', '4682'])('accepts %s', (pin) => {
    expect(guessablePinReason(pin)).toBeUndefined();
  });

  it('refuses the commonly chosen PINs an attack on the app found accepted', () => {
    const found = ['1357', '2468', '0101', '1221', '4545', '7410', '8520', ...Array.from({ length: 2020 - 1984 + 1 }, (_, i) => String(1984 + i))];
    expect(found.filter((pin) => guessablePinReason(pin) === undefined)).toEqual([]);
  });

  it('gives every refused PIN a reason, and lists only four-digit values', () => {
    expect(GUESSABLE_PINS.size).toBeGreaterThanOrEqual(300);
    expect(GUESSABLE_PINS.size).toBeLessThan(1000);
    for (const pin of GUESSABLE_PINS) {
      expect(pin).toMatch(/^\d{4}$/);
      expect(Object.values(PIN_REASONS)).toContain(guessablePinReason(pin));
    }
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
