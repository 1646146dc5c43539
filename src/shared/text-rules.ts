/**
 * What text members may send, as plain rules both the forms and the server's schemas use. Control
 * characters are refused (PostgreSQL cannot even store NUL), zero-width characters are dropped
 * before a text is judged empty, and bidirectional overrides are refused in names, where they would
 * let one name pass for another.
 */

/** C0 and C1 controls and DEL; tab, line feed and carriage return are allowed in multi-line text. */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/u;
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;
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
  return (options.multiline ? CONTROL_EXCEPT_LINE_BREAKS : CONTROL).test(text) || LONE_SURROGATE.test(text);
}

export function hasBidiControls(text: string): boolean {
  return BIDI_CONTROLS.test(text);
}
