/**
 * Whether this browser was signed in when it last knew. Only a hint (the server decides): a
 * returning member's first page is fetched beside the sign-in check instead of after it, and a
 * visitor who never signed in downloads no page. Kept by the query client, which sees every
 * change of the current user (`createQueryClient`).
 */
const SIGNED_IN_HINT = 'biggy:signed-in';

export function wasSignedIn(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_HINT) === '1';
  } catch {
    // Storage turned off: no hint, the page comes after the check.
    return false;
  }
}

export function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_HINT, '1');
    else localStorage.removeItem(SIGNED_IN_HINT);
  } catch {
    // Storage turned off or full: the hint is only an optimisation.
  }
}
