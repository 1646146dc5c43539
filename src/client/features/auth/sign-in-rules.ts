/**
 * Spec section 5, the sign-in rules, as pure functions the forms share. The server checks the same
 * shapes with the shared contract; these only decide when a submit button may be pressed.
 */
export const PIN_DIGITS = 4;

/** The PIN field keeps digits only, at most four: pasted '12-34 5' becomes '1234'. */
export function keepPinDigits(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, PIN_DIGITS);
}

export function isCompletePin(pin: string): boolean {
  return pin.length === PIN_DIGITS && /^\d+$/.test(pin);
}

const filled = (text: string) => text.trim() !== '';

export interface Credentials {
  password: string;
  name: string;
  pin: string;
}

/** Login: password and name, and the PIN either empty (first sign-in) or exactly four digits. */
export function canSubmitLogin({ password, name, pin }: Credentials): boolean {
  return password !== '' && filled(name) && (pin === '' || isCompletePin(pin));
}

/** Quick login: the remembered name and a four-digit PIN. */
export function canSubmitQuickLogin({ name, pin }: Pick<Credentials, 'name' | 'pin'>): boolean {
  return filled(name) && isCompletePin(pin);
}

/** PIN setup: all three, with a four-digit PIN. */
export function canSubmitPinSetup({ password, name, pin }: Credentials): boolean {
  return password !== '' && filled(name) && isCompletePin(pin);
}

/** Forgot PIN: a name. */
export function canSubmitForgotPin({ name }: Pick<Credentials, 'name'>): boolean {
  return filled(name);
}
