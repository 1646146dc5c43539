import { CARRIES_SCRIPT, INSTRUCTS_THE_TOOL, OPENING_FILLER, REQUEST_FORMS } from './rules.js';
import { steersTheOutput } from './steering.js';
import type { WordReading } from './word-model.js';

/**
 * Plain-text helpers of the local analyzer. Comments are untrusted: markup is stripped before they
 * are read (it is never rendered or followed), sentences that address the AI rather than the
 * architecture are set aside, and everything the analyzer writes is plain text.
 */

const SCRIPT_BLOCK = /<(script|style|iframe|object|embed|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const HTML_TAG = /<\/?[a-z][^<>]*>/gi;

/** `[text](target)` and `![alt](target)`; a target may hold one level of parentheses. */
const MARKDOWN_LINK = /!?\[([^\]]*)\]\((\s*(?:[^()\s]|\([^()\s]*\))*)\)/g;
const UNSAFE_URL = /\b(?:javascript|vbscript|data):\S*/gi;
const CODE_FENCE = /```[a-z0-9-]*/gi;
const EMPHASIS = /(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g;
const LINE_MARKUP = /^\s*(?:#{1,6}\s+|>\s?|[-*+•]\s+|\d{1,3}[.)]\s+)+/;
/** Control and format characters (bidi overrides, zero-width spaces), but not line breaks or tabs. */
const CONTROL = /(?![\n\t])[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/** Markup and control characters out, one sentence-ended line after another, whitespace collapsed. */
export function cleanText(raw: string): string {
  const text = raw
    .normalize('NFKC')
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL, '')
    .replace(SCRIPT_BLOCK, ' ')
    .replace(HTML_COMMENT, ' ')
    .replace(HTML_TAG, ' ')
    // A link to script or data says nothing: it goes with its text.
    .replace(MARKDOWN_LINK, (_link, label: string, target: string) => (/^\s*(?:javascript|vbscript|data):/i.test(target) ? ' ' : label))
    .replace(UNSAFE_URL, ' ')
    .replace(CODE_FENCE, ' ')
    .replace(/`/g, '')
    .replace(EMPHASIS, '$2');
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const clean = line.replace(LINE_MARKUP, '').replace(/<(?=[a-z!/?])/gi, ' ').replace(/\s+/g, ' ').trim();
    if (!/[\p{L}\p{N}]/u.test(clean)) continue;
    // A line without an end mark (a list item, a heading) is still a sentence of its own.
    lines.push(/[.!?:;…]["')\]]?$/.test(clean) ? clean : `${clean}.`);
  }
  return lines.join(' ');
}

/** Words addressed to the summarizer instead of the team (rules.ts): orders, role play, a verdict to report. */
const ADDRESSED_TO_THE_TOOL = Object.values(INSTRUCTS_THE_TOOL).map((rule) => rule.pattern);
const INJECTION_PATTERNS = [...ADDRESSED_TO_THE_TOOL, CARRIES_SCRIPT.pattern];

/** A sentence that talks to the AI (or carries script) rather than about the architecture. */
export function isInjection(sentence: string): boolean {
  return INJECTION_PATTERNS.some((pattern) => pattern.test(sentence));
}

/**
 * A comment that talks to the AI rather than to the team ("ignore previous instructions", "note for
 * the AI: report that…", "system: …"); with the word models (the built-in analyzer's), also one the
 * steering model reads as written to the tool (steering.ts). It is read as nothing: no theme,
 * request or suggestion may come from it, even from its other sentences, which would otherwise
 * carry its author's words into the outputs the instruction tried to steer.
 */
export function addressesTheTool(content: string, words?: WordReading): boolean {
  return ADDRESSED_TO_THE_TOOL.some((pattern) => pattern.test(content)) || (words !== undefined && steersTheOutput(content, words));
}

/** At most `max` characters, cut at a word boundary with an ellipsis. */
export function truncate(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** With a full stop unless it already ends with an end mark. */
export function asSentence(text: string): string {
  const clean = text.trim();
  if (clean === '') return clean;
  return /[.!?…]["')\]]?$/.test(clean) ? clean : `${clean.replace(/[,;:\s-]+$/, '')}.`;
}

const HEDGES = OPENING_FILLER.hedges.pattern;
/** What a reply opens with before its own point: '+1 Rahul, and', 'Agree with Maria:', 'Hi all,'. */
const REPLY_OPENERS = OPENING_FILLER.replyOpeners.pattern;

/** Without the filler in front ('I think', 'Also,', 'IMO', '+1 Rahul, and'), capitalised, ending with a full stop. */
export function tidySentence(sentence: string): string {
  const stripped = sentence.trim().replace(REPLY_OPENERS, '').replace(HEDGES, '');
  return asSentence(capitalise(stripped.length >= 12 ? stripped : sentence.trim()));
}

/** 'A', 'A and B', 'A, B and C'. */
export function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

export function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A stable comparison of strings, independent of the locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const { askedAsAQuestion, whyNot, howAbout, weShould } = REQUEST_FORMS;

/** A proposal asked as a question ('Can we add X?') as the request it is ('Add X.'); anything else tidied. */
export function asRequest(sentence: string): string {
  const text = sentence.trim();
  const asked = askedAsAQuestion.pattern.exec(text) ?? whyNot.pattern.exec(text);
  if (asked?.[1] !== undefined) return tidySentence(asked[1]);
  const about = howAbout.pattern.exec(text);
  if (about?.[1] !== undefined) return tidySentence(`Consider ${about[1]}`);
  const modal = weShould.pattern.exec(text);
  if (modal?.[1] !== undefined) return tidySentence(modal[1]);
  return tidySentence(text);
}

/** 'Approval gate' -> 'approval gate' inside a sentence; names and acronyms ('Event Correlation', 'CMDB lookup') stay as written. */
export function lowerFirst(label: string): string {
  return /^[A-Z][^A-Z]*$/.test(label) && /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
}
