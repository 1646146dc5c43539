import type { CommentSummaryOutput, NarrativeOutput, SuggestionsOutput } from '../../common/contract/ai.js';
import type { AiProvider } from './provider.js';

/**
 * The last check on every AI output, whichever provider made it (the engine wraps both): the output
 * speaks for the analysis, never for one member. Comments are untrusted text, and any provider may
 * repeat them, so whatever a comment can make an output say in the tool's voice is removed here, by
 * the kind of language it is rather than by phrases seen before:
 *
 * - Links and e-mail addresses. An output's readers trust it as the tool's own reading; an address in
 *   it is an invitation to go somewhere, which the analysis never has reason to make.
 * - Requests for a secret (a password, PIN, token, key, credentials): the tool never asks a reader for
 *   one, so a sentence that does is a member's words (phishing) in the tool's mouth.
 * - Claims of consensus or of an outcome ('everyone agrees', 'the review concluded', 'nothing should
 *   change') made with a comment's own words. Such a claim is only true when it is counted from the
 *   votes, which the analyzer does and states in its own words; a comment that asserts it is one
 *   member speaking for all, and a sentence that repeats it (a run of COPIED_RUN words) carries that
 *   member's assertion as the tool's finding.
 *
 * The sentence carrying such language is removed, not the whole output; a claim (theme, change,
 * suggestion, action, conflict) left without text goes with its sources, so no output cites a
 * comment for words it no longer says.
 */

/** Bumped when the guard changes: outputs stored under an older guard are made again. */
export const OUTPUT_GUARD_VERSION = 'guard/1';

/**
 * Words in a row that make a sentence a copy of a comment. Six: shorter runs are common phrasing
 * ('the on-call engineer should be', 'in the next review'); a run of six content-bearing words in
 * the same order is quotation.
 */
export const COPIED_RUN = 6;

// ---------------------------------------------------------------- links and addresses

/** Any scheme with an authority (http, https, ftp, and the rest), or a www. host. */
const SCHEMED_LINK = /\b[a-z][a-z0-9+.-]*:\/\/\S/i;
const WWW_HOST = /\bwww\d*\.[a-z0-9-]+/i;
/** One label of a host name, in any script ('evil', 'secure-login', a look-alike in Cyrillic). */
const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?`;
/** Not inside a word, a path or an address already read. */
const HOST_START = String.raw`(?<![\p{L}\p{N}_@/.-])`;
/** A host followed by a path or a port ('portal.example/login', 'evil.example:8443'): whatever its top-level name, that is an address. */
const HOST_WITH_PATH = new RegExp(String.raw`${HOST_START}(?:${LABEL}\.)+\p{L}[\p{L}\p{N}-]*[\p{L}\p{N}](?::\d{2,5})?\/`, 'iu');
const HOST_WITH_PORT = new RegExp(String.raw`${HOST_START}(?:${LABEL}\.)+\p{L}{2,}:\d{2,5}\b`, 'iu');
const IP_ADDRESS_LINK = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{2,5}|\/\S)/;
/**
 * A bare host ('secure-login.com'): only with a top-level name that is one of the generic ones or
 * reserved for examples, so file names ('setup.py', 'README.md', 'Node.js') are not taken for hosts.
 */
const BARE_HOST = new RegExp(
  String.raw`${HOST_START}(?:${LABEL}\.)+(?:com|net|org|info|biz|io|co|ai|app|dev|me|ly|xyz|online|site|top|club|shop|live|link|click|cloud|tech|page|support|help|login|email|example|invalid|localhost|local|internal|corp|lan)\b(?![.-]?[\p{L}\p{N}])`,
  'iu',
);
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/u;
const MAILTO = /\bmailto:/i;

const ADDRESSES = [SCHEMED_LINK, WWW_HOST, HOST_WITH_PATH, HOST_WITH_PORT, IP_ADDRESS_LINK, BARE_HOST, EMAIL, MAILTO];

/** Whether the text holds a link, a host name or an e-mail address. */
export function hasAddress(text: string): boolean {
  const normal = normalise(text);
  return ADDRESSES.some((pattern) => pattern.test(normal));
}

// ---------------------------------------------------------------- requests for a secret

/**
 * What a reader holds and must never hand over: sign-in secrets and machine credentials. A PIN
 * counts when written as the noun is ('PIN', 'PIN code'): a lower-case 'pin' is as often the verb
 * ('pin the version').
 */
const SECRET =
  /\b(?:pass(?:word|phrase|code)s?|pin (?:code|number)s?|one-time (?:code|password)s?|otps?|(?:2fa|mfa|verification|security|sign-in|login) codes?|tokens?|api[ -]?keys?|access keys?|private keys?|secrets?|secret keys?|credentials?|(?:login|sign-in) details)\b/i;
const PIN = /\bPINs?\b/;
/** The secrets a person holds, rather than a service's keys and tokens, which a design names in its own orders. */
const PERSONAL_SECRET =
  /\b(?:pass(?:word|phrase|code)s?|pin (?:code|number)s?|one-time (?:code|password)s?|(?:2fa|mfa|verification|security|sign-in|login) codes?|credentials?|(?:login|sign-in) details)\b/i;
/** Handing a secret over or typing it in: entering, sending, sharing, confirming, verifying, and their kin. */
const HAND_OVER =
  /\b(?:re-?enter(?:s|ed|ing)?|enter(?:s|ed|ing)?|type|typing|input|submit(?:s|ted|ting)?|send(?:s|ing)?|sent|share|shar(?:es|ed|ing)|provide|provid(?:es|ed|ing)|give|giv(?:es|ing)|supply|confirm(?:s|ed|ing)?|re-?confirm|verify|verif(?:ies|ied|ying)|validate|re-?validate|paste|reply|respond|e-?mail|forward|disclose|reveal|tell|update|reset|renew|log ?in|sign ?in|re-?authenticate|authenticate)\b/i;
/**
 * The reader addressed ('your', 'you'). Not 'us' or 'me': a design says 'Vault can give us
 * short-lived credentials'; an order to send the writer a secret opens the sentence and is caught so.
 */
const READER_ASKED = /\b(?:you|your|yours|yourself)\b/i;
/** An order that opens the sentence ('Enter the team password below'), politely or not. */
const ORDER_OPENING = new RegExp(`^\\W*(?:(?:please|kindly|now|first|then|just|simply|quickly|immediately)\\W+)*${HAND_OVER.source}`, 'i');

/**
 * Whether a sentence asks its reader for a secret: it names one and a way of handing it over, and
 * either addresses the reader ('re-enter your password') or orders a person's
 * secret outright ('Enter the team passcode below'). A design's own sentences about tokens and keys
 * ('the gateway verifies tokens', 'send the API key in a header') address no one and are kept.
 */
export function asksForSecret(sentence: string): boolean {
  const normal = normalise(sentence);
  const personal = PERSONAL_SECRET.test(normal) || PIN.test(normal);
  if (!(personal || SECRET.test(normal)) || !HAND_OVER.test(normal)) return false;
  return READER_ASKED.test(normal) || (personal && ORDER_OPENING.test(normal));
}

// ---------------------------------------------------------------- consensus and outcome claims

/**
 * A claim about what the group thinks or has decided. Only the votes can support one, and the
 * analyzer states those in its own words; the same claim in a comment's words is one member's say.
 */
const CLAIMS = [
  // Agreement as a noun: 'the consensus is', 'unanimous', 'broad agreement'.
  /\b(?:consensus|unanimous(?:ly)?|unanimity|(?:general|broad|full|complete|total) agreement)\b/i,
  // The whole group as the subject of agreeing or deciding: 'every reviewer agrees', 'we all support'
  // (with at most a few adverbs or auxiliaries between, so 'the team is divided on approve…' is no claim).
  /\b(?:every(?:one|body)|all of us|we all|(?:the|our) (?:whole |entire )?(?:team|group|panel|reviewers)|all (?:the )?(?:reviewers|members|participants|engineers|stakeholders|voters|teams)|every (?:single )?(?:reviewer|member|participant|engineer|stakeholder|voter|team))\b(?:\W+(?:\w+ly|all|now|already|has|have|had|did|does|do|here|also|just|still|then|in|on|of|us|the|this|that|thread|review|call|page)){0,4}\W+(?:agree[sd]?|concur(?:s|red)?|approve[sd]?|accept(?:s|ed)?|endorse[sd]?|support(?:s|ed)?|back(?:s|ed)?|signed off|sign off|(?:is|are|was|were) (?:\w+ly )?(?:aligned|behind|happy with|satisfied with|fine with|in favou?r))\b/i,
  // Nobody against: 'no one objects', 'without objection' (not a condition: 'if nobody objects').
  /(?<!\b(?:if|unless|when|until|once)\s)\b(?:no ?one|nobody|none of (?:us|the (?:reviewers|members)))\W+(?:\w+\W+)?(?:disagrees?|objects?|opposes?|dissents?)\b|\bwithout (?:any )?(?:objection|dissent)\b/i,
  // The review or the team as the one who decided: 'the review concluded', 'the team has decided'.
  /\b(?:the|this) (?:review|team|group|discussion|panel|committee|board|reviewers)\W+(?:has\W+|have\W+)?(?:concluded|decided|determined|resolved|ruled|agreed|approved|signed off|settled)\b/i,
  // An outcome stated as done: 'it was agreed', 'the design is approved', 'the matter is settled'.
  /\b(?:it|this|that|the (?:design|proposal|architecture|plan|approach|component|section|question|matter|debate|issue|discussion))\W+(?:is|was|has been|have been|are|were)\W+(?:now\W+)?(?:agreed|approved|settled|decided|final(?:ised|ized)?|signed off|ratified|closed)\b/i,
  /\b(?:settled|final decision|(?:final|review's|team's|group's) verdict|verdict of (?:the|this) review|conclusion of (?:the|this) review|review (?:is|was) (?:complete|concluded|closed))\b/i,
  // No change called for: 'nothing should change', 'no changes are needed'.
  // ('nothing automated should change production' is a request about production, not a verdict: a
  // verdict's 'change' has no object after it).
  /\b(?:nothing|none of (?:it|this))(?:\W+\w+){0,4}?\W+(?:should|needs? to|must|has to|is to|will|ought to)\W+(?:be\W+)?chang(?:e|ed|es|ing)\b(?=\s*(?:$|[.,;:!?)"'”’…]|(?:in|about|for|here|now|at|until|before|after|with|on|yet|and|or|but|so|there|anything|further)\b))/i,
  /\bno (?:further )?changes? (?:is |are )?(?:needed|required|necessary|warranted)\b|\b(?:needs|requires) no (?:further )?changes?\b|\bleave (?:it|this|everything) as (?:it is|is)\b/i,
];

/** Whether a sentence claims consensus or an outcome (see CLAIMS). */
export function claimsConsensus(sentence: string): boolean {
  const normal = normalise(sentence);
  return CLAIMS.some((pattern) => pattern.test(normal));
}

// ---------------------------------------------------------------- copied runs

/** The runs of COPIED_RUN words of some texts (the comments an output was made from). */
export class CopiedRuns {
  private readonly runs = new Set<string>();

  constructor(texts: readonly string[]) {
    for (const text of texts) for (const run of runsOf(wordsOf(text))) this.runs.add(run);
  }

  /** Whether the sentence repeats a run of COPIED_RUN words of one of the texts. */
  copiedIn(sentence: string): boolean {
    for (const run of runsOf(wordsOf(sentence))) if (this.runs.has(run)) return true;
    return false;
  }
}

function wordsOf(text: string): string[] {
  return normalise(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function* runsOf(words: readonly string[]): Generator<string> {
  for (let start = 0; start + COPIED_RUN <= words.length; start++) yield words.slice(start, start + COPIED_RUN).join(' ');
}

/** As the analyzer reads text: compatibility forms folded (full-width letters, ligatures), invisible characters out. */
function normalise(text: string): string {
  return text.normalize('NFKC').replace(/[\p{Cf}]/gu, '');
}

// ---------------------------------------------------------------- sentences

/**
 * The text cut into sentences, each with the space before it, so that joining them gives the text
 * back. A sentence ends at . ! ? (and any closing quote or bracket) before a space, or at a line
 * break; not inside “curly quotes”, where the analyzer quotes a comment whole.
 */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (char === '“') depth++;
    else if (char === '”') depth = Math.max(0, depth - 1);
    const next = text.charAt(i + 1);
    const ends = char === '\n' || (depth === 0 && /[.!?…]/.test(char) && (next === '' || /\s/.test(next) || (/["')\]’”]/.test(next) && /\s|$/.test(text.charAt(i + 2)))));
    if (!ends) continue;
    let end = i + 1;
    while (end < text.length && /["')\]’”]/.test(text.charAt(end))) end++;
    sentences.push(text.slice(start, end));
    start = end;
    i = end - 1;
  }
  if (start < text.length) sentences.push(text.slice(start));
  return sentences;
}

/** Why a sentence may not stand in an output, or undefined when it may. */
export function objectionTo(sentence: string, copied: CopiedRuns): 'address' | 'secret' | 'copied claim' | undefined {
  if (hasAddress(sentence)) return 'address';
  if (asksForSecret(sentence)) return 'secret';
  if (claimsConsensus(sentence) && copied.copiedIn(sentence)) return 'copied claim';
  return undefined;
}

/** The text without its objectionable sentences; unchanged when it has none. */
export function guardText(text: string, copied: CopiedRuns): string {
  const sentences = sentencesOf(text);
  const kept = sentences.filter((sentence) => objectionTo(sentence, copied) === undefined);
  if (kept.length === sentences.length) return text;
  return kept.join('').replace(/^\s+/, '').trimEnd();
}

// ---------------------------------------------------------------- the three outputs

/** A summary's written part: what the guard reads (whatever else a summary carries passes through as it is). */
type SummaryText = Omit<CommentSummaryOutput, 'setAside'>;

export function guardSummary<Summary extends SummaryText>(output: Summary, comments: readonly string[]): Summary {
  const copied = new CopiedRuns(comments);
  const themes = output.keyThemes
    .map((theme, index) => ({ theme: guardText(theme, copied), sources: output.sources.keyThemes[index] ?? [] }))
    .filter(({ theme }) => theme !== '');
  const change = (text: string, sources: number[]) => {
    const kept = guardText(text, copied);
    return { text: kept, sources: kept === '' ? [] : sources };
  };
  const content = change(output.contentChanges, output.sources.contentChanges);
  const structural = change(output.structuralChanges, output.sources.structuralChanges);
  return {
    ...output,
    understanding: guardText(output.understanding, copied),
    contentChanges: content.text,
    structuralChanges: structural.text,
    keyThemes: themes.map(({ theme }) => theme),
    sources: { keyThemes: themes.map(({ sources }) => sources), contentChanges: content.sources, structuralChanges: structural.sources },
  };
}

export function guardSuggestions(output: SuggestionsOutput, comments: readonly string[]): SuggestionsOutput {
  const copied = new CopiedRuns(comments);
  return {
    suggestions: output.suggestions.flatMap((suggestion) => {
      const text = guardText(suggestion.suggestion, copied);
      return text === '' ? [] : [{ ...suggestion, suggestion: text }];
    }),
  };
}

/** `quoted`: what the narrative may repeat: the suggestions' texts and the comments they follow from. */
export function guardNarrative(output: NarrativeOutput, quoted: readonly string[]): NarrativeOutput {
  const copied = new CopiedRuns(quoted);
  const guard = (text: string) => guardText(text, copied);
  return {
    ...output,
    overallConsensus: guard(output.overallConsensus),
    keyThemes: output.keyThemes.flatMap((theme) => {
      const name = guard(theme.theme);
      return name === '' ? [] : [{ ...theme, theme: name, description: guard(theme.description) }];
    }),
    actionItems: output.actionItems.flatMap((item) => {
      const action = guard(item.action);
      return action === '' ? [] : [{ ...item, action, reasoning: guard(item.reasoning) }];
    }),
    conflicts: output.conflicts.flatMap((conflict) => {
      const topic = guard(conflict.topic);
      return topic === '' ? [] : [{ ...conflict, topic, description: guard(conflict.description), suggestedResolution: guard(conflict.suggestedResolution) }];
    }),
  };
}

/** The provider with every output it makes guarded; its prompt version says so, so outputs stored unguarded are made again. */
export function guardedProvider(provider: AiProvider): AiProvider {
  return {
    name: provider.name,
    model: provider.model,
    promptVersion: (kind, promptId) => `${provider.promptVersion(kind, promptId)}+${OUTPUT_GUARD_VERSION}`,
    async summarizeComments(input, signal) {
      return guardSummary(await provider.summarizeComments(input, signal), input.comments.map((comment) => comment.content));
    },
    async generateSuggestions(input, signal) {
      return guardSuggestions(await provider.generateSuggestions(input, signal), input.comments.map((comment) => comment.content));
    },
    async narrativeSummary(input, signal) {
      const quoted = [...input.suggestions.map((suggestion) => suggestion.suggestion), ...(input.sourceComments ?? []).map((comment) => comment.content)];
      return guardNarrative(await provider.narrativeSummary(input, signal), quoted);
    },
  };
}
