/**
 * A PIN is four digits; new PINs that are guessable are refused (NIST SP 800-63B 5.1.1.2: refuse values from lists of commonly used
 * or guessable secrets). Plain values: the PIN-setup form and the server apply the same rule.
 */

export const PIN_LENGTH = 4;
export const PIN_PATTERN = /^\d{4}$/;

/** The PIN field keeps digits only, at most four: pasted '12-34 5' becomes '1234'. */
export function keepPinDigits(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, PIN_LENGTH);
}

export function isCompletePin(pin: string): boolean {
  return PIN_PATTERN.test(pin);
}

const REPEATED = Array.from({ length: 10 }, (_, digit) => String(digit).repeat(4));

/** 0123 … 6789 and 9876 … 3210. */
const RUNS = Array.from({ length: 7 }, (_, start) => {
  const digits = [0, 1, 2, 3].map((step) => String(start + step));
  return [digits.join(''), digits.reverse().join('')];
}).flat();

/**
 * The most used 4-digit PINs in published leak analyses (DataGenetics' top 20 less the repeats and
 * runs above), and the keypad's middle column.
 */
const MOST_USED = ['1212', '1004', '2000', '6969', '1122', '1313', '2001', '1010', '2580', '0852'];

export const GUESSABLE_PINS: ReadonlySet<string> = new Set([...REPEATED, ...RUNS, ...MOST_USED]);

export function isGuessablePin(pin: string): boolean {
  return GUESSABLE_PINS.has(pin);
}

export const GUESSABLE_PIN_MESSAGE = 'This PIN is too easy to guess. Avoid repeated digits, runs such as 1234 and common PINs.';
