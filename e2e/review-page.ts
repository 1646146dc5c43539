import type { Locator, Page } from 'playwright-core';

// The main page as the browser tests drive it: its cards and the comment panel they open.

/** A card of the main page, by its title. */
export function card(page: Page, title: string): Locator {
  return page.getByRole('article', { name: title, exact: true });
}

/** The comment panel (one dialog at a time). */
export function commentPanel(page: Page): Locator {
  return page.getByRole('dialog');
}

/** Opens a card's comment panel: hover shows the button on a desktop; a phone always shows it, and taps. */
export async function openCardPanel(page: Page, title: string, device: 'desktop' | 'phone' = 'desktop'): Promise<Locator> {
  const target = card(page, title);
  const button = target.getByRole('button', { name: `Comment on ${title}` });
  if (device === 'phone') {
    await button.tap();
  } else {
    await target.hover();
    await button.click();
  }
  const dialog = commentPanel(page);
  await dialog.getByRole('heading', { name: title }).waitFor();
  return dialog;
}

/**
 * Has the incident-flow diagram drawn, which the page does only as the diagram nears the window:
 * scrolls its section into view, waits for the first box, and scrolls back to the top of the page
 * (a drawn diagram stays drawn).
 */
export async function showDiagram(page: Page): Promise<void> {
  await page.locator('#incident-flow').scrollIntoViewIfNeeded();
  await page.locator('.react-flow__node').first().waitFor();
  await page.evaluate('window.scrollTo(0, 0)');
}
