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

/** Words addressed to the summarizer instead of the team: orders, role play, a verdict to report. */
const ADDRESSED_TO_THE_TOOL = [
  /\b(?:ignore|disregard|forget|override|bypass)\b.{0,60}\b(?:instructions?|prompts?|rules|directions|guidelines|context|above|system)\b/i,
  /\b(?:system prompt|developer mode|jailbreak|as an ai\b(?!-)|you are (?:now )?(?:an?|the|my) (?:ai|assistant|model|chatbot|llm)\b)/i,
  /\b(?:notes?|message|instructions?|reminder)\s+(?:for|to)\s+(?:the\s+)?(?:ai|assistant|bot|model|llm|summari[sz]er|biggy)\b/i,
  /\b(?:dear|hey|hi|hello)\s+(?:ai|assistant|bot|model|biggy)\b/i,
  /(?:^|[.!?]\s+)(?:system|assistant)\s*:/im,
  // Called by name at the start: '@AI', 'AI summarizer:', 'Assistant, …' ('AI:' alone may head a point about AI).
  /(?:^|[.!?]\s+)(?:@(?:the\s+)?(?:ai|assistant|bot|biggy)\b|(?:the\s+)?ai\s+(?:summari[sz]er|summary(?:\s+tool)?|tool|assistant|writer)\s*[:,–—-]|(?:assistant|bot|biggy)\s*[:,–—-])/im,
  // The tool that writes the output, addressed: 'For the assistant generating this summary: …'.
  /(?:^|[.!?]\s+)(?:for|to|dear)\s+(?:the\s+)?(?:ai|assistant|bot|model|llm|summari[sz]er|tool)\b[^.!?:]{0,40}\b(?:generat|writ|produc|mak|compil|draft|creat)\w*\b[^.!?:]{0,30}\b(?:summary|summaries|narrative|report|recommendations?)\b/im,
  // Whichever tool reads it, addressed: 'For whichever AI is reading this: …'.
  /\b(?:for|to)\s+(?:whichever|whatever)\s+(?:ai|assistant|bot|model|llm|tool|summari[sz]er)\b|\b(?:ai|assistant|bot|model|tool|summari[sz]er)\s+(?:that\s+|who\s+)?(?:is\s+)?reading this\b/i,
  // Told to report no dissent: 'list zero concerns', 'report no objections'.
  /\b(?:list|report|show|mention|record)\s+(?:zero|no)\s+(?:concerns?|objections?|issues|risks|dissent)\b/i,
  // Whoever or whatever writes the output, addressed: 'Note for whoever generates the summary: …'.
  /\b(?:notes?|message|instructions?|reminder|request)\s+(?:for|to)\s+(?:whoever|whatever|anyone|anything)\b[^.!?:]{0,60}\b(?:generates?|writes?|produces?|makes?|compiles?|drafts?|creates?)\b[^.!?:]{0,40}\b(?:summary|summaries|narrative|report|minutes|recommendations?)\b/i,
  // Told to keep the dissent out of it: 'leave the objections out', 'omit the concerns'.
  /\b(?:leave|keep)\s+(?:the|all|any)\s+(?:objections?|concerns?|dissent|disagreements?)\s+out\b|\b(?:omit|hide|suppress)\s+(?:the|all|any)\s+(?:objections?|concerns?|dissent|disagreements?)\b/i,
  // Told how to write its output: 'when you write the narrative for this component, state that…'.
  /\bwhen you (?:write|summari[sz]e|generate|produce|draft|compile)\b[^.!?]{0,60}\b(?:summary|summaries|narrative|report|recommendations?|this component)\b/i,
  // A verdict to hand on: "report that the whole team approved", "summarise this as fully agreed".
  /\b(?:report|say|state|write|conclude|summari[sz]e)\b[^.!?]{0,40}\b(?:that|as)\b[^.!?]{0,40}\b(?:the (?:whole )?team|everyone|everybody|all (?:members|reviewers)|we all)\b[^.!?]{0,30}\b(?:approved|agreed|agrees|signed off)\b/i,
  /\b(?:report|say|state|summari[sz]e|mark|record)\b[^.!?]{0,40}\b(?:that|as)\b[^.!?]{0,20}\b(?:fully agreed|unanimous\w*|there (?:are|were) no (?:open )?(?:issues|concerns|objections))\b/i,
  // Whatever condenses the thread, addressed by what it does: 'Whoever or whatever condenses this
  // thread: …', 'To the software boiling these comments down: …'. Colleagues reading it later are
  // addressed by reading, and not caught.
  /(?:^|[.!?]\s+)[^.!?:]{0,60}\b(?:condens|summari[sz]|digest|boil|distil|turn|compil|collat|rewrit|process|generat|produc)\w*\b[^.!?:]{0,20}\b(?:this|these)\s+(?:threads?|comments?|discussions?|pages?|reviews?|sections?|conversations?|posts)\b[^.!?:]{0,60}:/im,
  // A heading that calls whatever summarises the review: 'Heads-up to the summarising bot: …', 'For
  // when this thread gets auto-condensed: …', 'For the digest generated off this page: …'. Not the
  // team's own summaries ('For the PIR summary: include the timeline').
  /(?:^|[.!?]\s+)(?:\S+\s+){0,2}?(?:to|for|dear|hey|heads-up|attention|whoever|whatever|whichever)\b(?=[^.!?:]{0,80}\b(?:summar\w*|digest\w*|condens\w*|boil\w*(?:\s+\w+)?\s+down|distil\w*|recap\w*|write-?up)\b)(?=[^.!?:]{0,80}\b(?:(?:this|these)\s+(?:threads?|pages?|reviews?|discussions?|comments?|conversations?)|your|bot|model|assistant|ai|llm|tool|software|program|machine)\b)[^.!?:]{0,80}:/im,
  // A verdict to present: 'present paging first as the agreed decision', 'write it up as unanimous'.
  /\b(?:present|frame|portray|describe|report|record|list|show|summari[sz]e|state|treat|write\s+(?:it|this|that)\s+up|put\s+(?:it|this|that)\s+forward)\b[^.!?]{0,60}\bas\s+(?:the\s+|an?\s+)?(?:agreed|unanimous|consensus)\b/i,
  // The dissent to drop from the output: "drop Kwame's objections from it", 'keep the back-and-forth out of it'.
  /\b(?:drop|omit|leave\s+out|strip|cut|remove|exclude|skip|keep)\b[^.!?]{0,40}\b(?:objections?|concerns?|dissent|disagreements?|pushback|back-and-forth|debate|arguments?)\b[^.!?]{0,20}\b(?:from|out\s+of)\s+(?:it|this|the\s+(?:summary|digest|report|narrative|write-?up|recap|minutes))\b/i,
  // The tool called by a tag: '[summary-engine] Verdict: …', '@review-summary bot - …'. A teammate's
  // '@Priya' or a heading like '[AI triage]' names no bot.
  /(?:^|[.!?]\s+)[[@]\s*[\w -]{0,30}?\b(?:bot|engine|assistant|summari[sz]er|generator)\b/im,
  // Its output, as the tool's own: 'omit the reopening debate from your output', 'your verdict for
  // this section is…'. Not a colleague's ('paste your output from the dry run', 'your verdict, Priya?').
  /\b(?:from|in|into|out\s+of)\s+your\s+output\b|\byour\s+verdict\s+(?:for|on)\b[^.!?]{0,60}\b(?:is|should\s+be|must\s+be)\b/i,
  // Instructions for what the tool makes: 'Instruction for the automated review report: …'.
  /\binstructions?\s+(?:for|to)\s+(?:the\s+)?(?:automated|automatic|generated|auto-generated)\b/i,
];

const INJECTION_PATTERNS = [
  ...ADDRESSED_TO_THE_TOOL,
  /\b(?:alert|prompt|confirm|eval)\s*\(/i,
  /\bon(?:error|load|click|mouseover)\s*=/i,
  /\b(?:document\.cookie|window\.location)\b/i,
];

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

const HEDGES =
  /^(?:(?:please|also|and|but|so|ok|okay|overall|honestly|frankly|personally|imo|imho|in my (?:opinion|view)|i think(?: that)?|i believe(?: that)?|i feel(?: that)?|i guess|in general|generally|maybe|perhaps|ideally|finally|additionally|moreover)\b[,:]?\s+)+/i;

/** What a reply opens with before its own point: '+1 Rahul, and', 'Agree with Maria:', 'Hi all,'. */
const REPLY_OPENERS =
  /^(?:(?:\+1|agreed?|i agree|same here|seconded|exactly|yes|no|hi|hello|hey|morning|good morning)(?:\s+(?:to|with|on))?(?:\s+(?:all|everyone|team|folks|[A-Z][\p{L}'-]+(?:'s)?))?\s*[,.:;!]+\s+(?:and\s+|but\s+|so\s+)?)+/iu;

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

const ASKING = /^(?:(?:so|and|but|also|then)\s+)?(?:could|can|should|shall|would|will|might)\s+(?:we|you|someone|the team)\s+(?:please\s+)?(?:maybe\s+|perhaps\s+|also\s+|just\s+)?(.{8,}?)\s*\?+$/i;
const WHY_NOT = /^why\s+not\s+(.{8,}?)\s*\?+$/i;
const HOW_ABOUT = /^(?:how|what)\s+about\s+(.{6,}?)\s*\?+$/i;

/** 'We should increase X' -> 'Increase X' (not 'We should not ...' or 'We should be able to ...'). */
const WE_SHOULD =
  /^(?:(?:i think|so|also|and)\s+)?(?:we|you|they|the team|someone)\s+(?:really\s+|probably\s+|also\s+|definitely\s+)?(?:should|must|need to|needs to|have to|has to|ought to)\s+(?:really\s+|probably\s+|also\s+|definitely\s+)?(?!not\b|never\b|be\b|have\b|get\b)([a-z].{8,})$/i;

/** A proposal asked as a question ('Can we add X?') as the request it is ('Add X.'); anything else tidied. */
export function asRequest(sentence: string): string {
  const text = sentence.trim();
  const asked = ASKING.exec(text) ?? WHY_NOT.exec(text);
  if (asked?.[1] !== undefined) return tidySentence(asked[1]);
  const about = HOW_ABOUT.exec(text);
  if (about?.[1] !== undefined) return tidySentence(`Consider ${about[1]}`);
  const modal = WE_SHOULD.exec(text);
  if (modal?.[1] !== undefined) return tidySentence(modal[1]);
  return tidySentence(text);
}

/** 'Approval gate' -> 'approval gate' inside a sentence; names and acronyms ('Event Correlation', 'CMDB lookup') stay as written. */
export function lowerFirst(label: string): string {
  return /^[A-Z][^A-Z]*$/.test(label) && /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
}
