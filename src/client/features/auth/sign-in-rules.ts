import { isCompletePin } from '../../../common/pin-rules';

/**
 * The sign-in rules, as pure functions the forms share. The PIN rule is the server's own
 * (`src/common/pin-rules.ts`); these only decide when a submit button may be pressed.
 */

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
