import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** Finite transitions and animations still running (spinners and other endless ones are ignored). */
const RUNNING_FINITE_ANIMATIONS = `document.getAnimations().filter((animation) => animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity).length`;

/**
 * WCAG 2.2 AA and best-practice violations of any impact on the page as it is now, as readable lines. Checked
 * once fades have finished: a half-faded element (a screenshot with animations disabled restarts
 * them) fails the contrast rule for a reason no user sees.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // Polled with evaluate (the page's CSP forbids the eval that waitForFunction would need).
  const deadline = Date.now() + 5000;
  while ((await page.evaluate<number>(RUNNING_FINITE_ANIMATIONS)) > 0 && Date.now() < deadline) await page.waitForTimeout(50);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    // Label in name (WCAG 2.5.3) is an experimental rule, off unless asked for: a control's
    // accessible name must contain the text it shows, so speech users can say what they see.
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return results.violations.map((violation) => `${violation.id} (${violation.impact ?? ''}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
