import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The toasts on screen: the items of Radix's 'Notifications (F8)' region, found even while a modal
 * (the comment panel) hides the rest of the page from assistive technology; Radix announces each
 * toast through its own live region meanwhile.
 */
export function toasts(page: Page): Locator {
  return page.getByRole('region', { name: 'Notifications (F8)', includeHidden: true }).locator('li');
}

/** Waits for the toast with this title and checks its text; when it never comes, says which toasts did. */
export async function expectToast(page: Page, title: string, text: string | RegExp): Promise<Locator> {
  const toast = toasts(page).filter({ hasText: title }).first();
  await toast.waitFor({ timeout: 15_000 }).catch(async (error: unknown) => {
    // A failure toast in its place names what went wrong.
    const shown = await toasts(page).allInnerTexts();
    throw new Error(`No '${title}' toast; toasts shown: ${JSON.stringify(shown)}`, { cause: error });
  });
  expect(await toast.locator('> div > :first-child').innerText()).toBe(title);
  const description = await toast.locator('> div > :nth-child(2)').innerText();
  if (typeof text === 'string') expect(description).toBe(text);
  else expect(description).toMatch(text);
  return toast;
}

/**
 * Closes every toast, including those waiting their turn: the app shows one at a time, so closing
 * one can bring in the next (a toast raised while the toaster was still loading, say). A plain loop
 * rather than `expect.poll`, which vitest allows only inside a test: sign-in helpers call this from
 * `beforeAll` too.
 */
export async function closeToasts(page: Page): Promise<void> {
  const open = toasts(page);
  const deadline = Date.now() + 15_000;
  while ((await open.count()) > 0) {
    if (Date.now() > deadline) throw new Error(`Toasts still open: ${JSON.stringify(await open.allInnerTexts())}`);
    for (const toast of await open.all()) {
      // One that leaves on its own meanwhile needs no click.
      await toast
        .getByRole('button', { name: 'Close', includeHidden: true })
        .click({ timeout: 2_000 })
        .catch(() => undefined);
      await toast.waitFor({ state: 'detached', timeout: 2_000 }).catch(() => undefined);
    }
  }
}
