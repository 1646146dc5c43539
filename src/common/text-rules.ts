/**
 * What text members may send, as plain rules both the forms and the server's schemas use. Control
 * characters are refused (PostgreSQL cannot even store NUL), zero-width characters are dropped
 * before a text is judged empty, and bidirectional overrides are refused in names, where they would
 * let one name pass for another.
 */

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** C0 and C1 controls and DEL. */
function isControl(code: number): boolean {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}
/** Zero-width space, joiners, word joiner and the byte-order mark. */
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/gu;
/** Embeddings, overrides and isolates, plus the invisible direction marks. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/** A surrogate without its pair: not text at all, and refused by PostgreSQL. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const TEXT_RULE_MESSAGES = {
  control: 'must not contain control characters',
  bidi: 'must not contain text-direction control characters',
} as const;

export function withoutZeroWidth(text: string): string {
  return text.replace(ZERO_WIDTH, '');
}

/** Multi-line text (comments, prompts) may hold tabs and line breaks, nothing else of the kind. */
export function hasForbiddenControls(text: string, options: { multiline: boolean }): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (!isControl(code)) continue;
    if (options.multiline && (code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN)) continue;
    return true;
  }
  return LONE_SURROGATE.test(text);
}

export function hasBidiControls(text: string): boolean {
  return BIDI_CONTROLS.test(text);
}
