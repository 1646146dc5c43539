/**
 * A PIN is four digits; new PINs that are guessable are refused (NIST SP 800-63B 5.1.1.2: refuse values from lists of commonly used
 * or guessable secrets), each with the reason of the rule it breaks. Plain values: the PIN-setup form and the server apply the same
 * rules and show the same reasons.
 */

export const PIN_LENGTH = 4;
export const PIN_PATTERN = /^\d{4}$/;

/** The field keeps digits only, at most four: pasted '12-34 5' becomes '1234'. */
export function keepPinDigits(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, PIN_LENGTH);
}

export function isCompletePin(pin: string): boolean {
  return PIN_PATTERN.test(pin);
}

/** Why a PIN is refused: one reason per rule, shown as it is by the form and in the server's 400. */
export const PIN_REASONS = {
  repeatedDigit: 'PINs of one repeated digit are easy to guess',
  run: 'PINs whose digits run up or down in even steps, such as 1234 or 1357, are easy to guess',
  year: 'PINs that are a year are easy to guess',
  repeatedPair: 'PINs that are a repeated pair, such as 4545, are easy to guess',
  mirroredPair: 'PINs that are a pair and its mirror, such as 1221, are easy to guess',
  keypadLine: 'PINs that are a keypad line, such as 2580, are easy to guess',
  common: 'This is one of the most commonly chosen PINs',
} as const;

export type PinReason = (typeof PIN_REASONS)[keyof typeof PIN_REASONS];

/** The PIN's digits as numbers (a complete PIN is ASCII digits only). */
const digitsOf = (pin: string) => Array.from({ length: pin.length }, (_, index) => Number(pin.charAt(index)));

/** Steps of one or two, up or down: 0123 … 6789, 0246 … 3579, and their reverses. */
function isRun(pin: string): boolean {
  const [a = 0, b = 0, c = 0, d = 0] = digitsOf(pin);
  const step = b - a;
  return step !== 0 && Math.abs(step) <= 2 && c - b === step && d - c === step;
}

/** Birth years and years people remember, with room on both sides. */
const FIRST_YEAR = 1940;
const LAST_YEAR = 2039;

/** The phone keypad's columns, down and up (0 sits under 8): 2580, 1470, 3690 and their reverses, and with 0 first. */
const KEYPAD_LINES: ReadonlySet<string> = new Set(['2580', '0852', '1470', '0741', '3690', '0963', '7410', '0147', '8520', '0258', '9630', '0369']);

/**
 * The most commonly chosen 4-digit PINs of published studies, mainly DataGenetics' analysis of 3.4
 * million PINs (2012). Written from knowledge of that analysis, not copied from its data: its top 20
 * as published, then further values that ranked high there or in later studies. Many of its top 100
 * are covered by the rules instead (years, repeated and mirrored pairs, keypad lines, repeats, runs),
 * so only what no rule catches is listed here.
 */
const MOST_USED: ReadonlySet<string> = new Set([
  // DataGenetics' top 20 that no rule catches (the rest are repeats, runs and repeated pairs).
  '1004', '1122',
  // Further high-ranking values: dates and times, odd and even digits, words on the keypad, codes.
  '1230', '0007', '1369', '0001', '1000', '0069', '0420', '0911', '1225', '1231', '1123', '1233', '1112', '1300',
  '5683', '3141', '1066', '1024', '2048', '4200', '0024', '0247', '1793', '2587', '1478', '3214', '1235',
  '1500', '0124', '0365', '0070', '0666', '6699', '1337', '0404', '0200', '0300', '1100', '1200',
]);

const RULES: readonly { reason: PinReason; matches: (pin: string) => boolean }[] = [
  { reason: PIN_REASONS.repeatedDigit, matches: (pin) => /^(\d)\1{3}$/.test(pin) },
  { reason: PIN_REASONS.run, matches: isRun },
  { reason: PIN_REASONS.year, matches: (pin) => Number(pin) >= FIRST_YEAR && Number(pin) <= LAST_YEAR },
  { reason: PIN_REASONS.repeatedPair, matches: (pin) => /^(\d\d)\1$/.test(pin) },
  { reason: PIN_REASONS.mirroredPair, matches: (pin) => /^(\d)(\d)\2\1$/.test(pin) },
  { reason: PIN_REASONS.keypadLine, matches: (pin) => KEYPAD_LINES.has(pin) },
  { reason: PIN_REASONS.common, matches: (pin) => MOST_USED.has(pin) },
];

/** Why this complete PIN is refused, or undefined when it may be used. */
export function guessablePinReason(pin: string): PinReason | undefined {
  if (!isCompletePin(pin)) return undefined;
  return RULES.find((rule) => rule.matches(pin))?.reason;
}

/** Every refused 4-digit value (for tests, and for picking a random PIN that is not one). */
export const GUESSABLE_PINS: ReadonlySet<string> = new Set(
  Array.from({ length: 10_000 }, (_, value) => String(value).padStart(PIN_LENGTH, '0')).filter((pin) => guessablePinReason(pin) !== undefined),
);
