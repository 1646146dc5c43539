import type { Page } from 'playwright-core';

/** WCAG 2.5.8 (AA): a pointer target of at least 24 by 24 CSS pixels. */
export const MIN_TARGET = 24;

/**
 * Every visible control on the page smaller than 24×24 px, as readable lines. Stricter than axe's
 * target-size rule, which lets a small target pass when nothing else is near it: a control that
 * stands on its own line gets the full size. A link inside a sentence is exempt (2.5.8's inline
 * exception), as is a control inside the overlay a closed dialog leaves behind.
 */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const min = ${MIN_TARGET};
    const controls = document.querySelectorAll('a[href], button, [role="button"], [role="tab"], [role="menuitem"], [role="checkbox"], [role="radio"], input:not([type="hidden"]), select, summary');
    const small = [];
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      // Not drawn, or drawn 1 px square and clipped away (a native radio under its visible label).
      if (box.width <= 1 || box.height <= 1) continue;
      const style = getComputedStyle(control);
      if (style.visibility === 'hidden' || control.closest('[aria-hidden="true"], [inert]')) continue;
      // Inline in a sentence: a link whose block holds other text around it.
      if (control.tagName === 'A' && style.display === 'inline' && (control.parentElement?.textContent ?? '').trim() !== (control.textContent ?? '').trim()) continue;
      if (box.width + 0.5 < min || box.height + 0.5 < min) {
        const name = control.getAttribute('aria-label') ?? (control.textContent ?? '').trim().replace(/\\s+/g, ' ').slice(0, 40);
        small.push(control.tagName.toLowerCase() + ' "' + name + '": ' + Math.round(box.width) + '×' + Math.round(box.height));
      }
    }
    return small;
  })()`);
}
