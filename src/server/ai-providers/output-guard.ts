import { SET_ASIDE_MAX, type CommentSummaryOutput, type NarrativeOutput, type SetAside, type SuggestionsOutput } from '../../common/contract/ai.js';
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
 *
 * A comment that itself asks for a secret or claims consensus or an outcome is not given to the
 * provider at all (a summary lists it with the comments it set aside, saying why), and no output
 * may cite it or repeat a run of its words: read, it would be repeated, cited or made a theme of
 * that pushes the team's own points out.
 */

/** Bumped when the guard changes: outputs stored under an older guard are made again. */
export const OUTPUT_GUARD_VERSION = 'guard/2';

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
const LABEL = String.raw`[\p{L}\p{N}][\p{L}\p{N}-]*`;
/** Not inside a word, a path or an address already read. */
const HOST_START = String.raw`(?<![\p{L}\p{N}_@/.-])`;
/** A host followed by a path or a port ('portal.example/login', 'evil.example:8443'): whatever its top-level name, that is an address. */
const HOST_WITH_PATH = new RegExp(String.raw`${HOST_START}(?:${LABEL}\.)+\p{L}[\p{L}\p{N}-]*[\p{L}\p{N}](?::\d{2,5})?\/`, 'iu');
const HOST_WITH_PORT = new RegExp(String.raw`${HOST_START}(?:${LABEL}\.)+\p{L}{2,}:\d{2,5}\b`, 'iu');
/** An IPv4 address, bare or with a port or path: four numbers of at most 255, not a version ('v1.2.3.4'). */
const IP_ADDRESS_LINK = /(?<![\w.])(?<!v)(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\w.]*\d)/;
/**
 * A bare host ('secure-login.com'): only with a top-level name that is one of the generic ones or
 * reserved for examples, so file names ('setup.py', 'README.md', 'Node.js') are not taken for hosts.
 */
const BARE_HOST = new RegExp(
  String.raw`${HOST_START}(?:${LABEL}\.)+(?:com|net|org|info|biz|io|co|ai|app|dev|me|ly|xyz|online|site|top|club|shop|live|link|click|cloud|tech|page|support|help|login|email|example|invalid|localhost|local|internal|corp|lan|us|uk|de|fr|eu|ru|cn|tk|cc|nl|pl|es|ca|au|jp|br|ch|se|no)\b(?![.-]?[\p{L}\p{N}])`,
  'iu',
);
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/u;
const MAILTO = /\bmailto:/i;

/** A top-level name, as an address spelled out in words ends ('… dot com'). */
const SPELLED_TLD = String.raw`(?:com|net|org|info|biz|io|co|ai|app|dev|me|uk|de|fr|eu|gov|edu|example|invalid)`;
/**
 * An address written so that it is not a link ('evil[.]example', 'hxxps://', 'name [at] host',
 * 'name at corp-mail dot com', 'corp . example'): still an address to whoever reads it, so it is
 * read as one.
 */
function undefanged(text: string): string {
  return text
    .replace(/\s*[[(]\s*(?:\.|dot)\s*[\])]\s*/gi, '.')
    .replace(/\s*[[(]\s*(?:@|at)\s*[\])]\s*/gi, '@')
    .replace(new RegExp(String.raw`([\p{L}\p{N}-]+)\s+dot\s+(?=(?:[\p{L}\p{N}-]+\s+dot\s+)*${SPELLED_TLD}\b)`, 'giu'), '$1.')
    .replace(new RegExp(String.raw`([\p{L}\p{N}-]\.)\s*dot\s+(${SPELLED_TLD})\b`, 'giu'), '$1$2')
    .replace(new RegExp(String.raw`\b([\p{L}\p{N}._%+-]+)\s+at\s+([\p{L}\p{N}-]+\.(?:[\p{L}\p{N}-]+\.)*${SPELLED_TLD})\b`, 'giu'), '$1@$2')
    .replace(new RegExp(String.raw`([\p{L}\p{N}-])\s+\.\s+(${SPELLED_TLD})\b`, 'giu'), '$1.$2')
    .replace(/\bhxxp(s?):/gi, 'http$1:')
    .replace(/\[:\]\/\//g, '://');
}

const MIGHT_HOLD_ADDRESS = /@|:\/\/|mailto:|[\p{L}\p{N}]\.[\p{L}\p{N}]/u;
const ADDRESSES = [SCHEMED_LINK, WWW_HOST, HOST_WITH_PATH, HOST_WITH_PORT, IP_ADDRESS_LINK, BARE_HOST, EMAIL, MAILTO];

/** Whether the text holds a link, a host name or an e-mail address. */
export function hasAddress(text: string): boolean {
  const normal = undefanged(normalise(text));
  // Every address has an '@', a '://', 'mailto:', or a dot between two letters or digits: most sentences have
  // none, and skip the host patterns, which are slow on long text.
  if (!MIGHT_HOLD_ADDRESS.test(normal)) return false;
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
const PIN = /\bPINs?\b|\b(?:your|their|our|my|his|her|everyone['’]?s|sign-?in|login|team)\s+pins?\b/;
/** The secrets a person holds, rather than a service's keys and tokens, which a design names in its own orders. */
const PERSONAL_SECRET =
  /\b(?:pass(?:word|phrase|code)s?|pin (?:code|number)s?|one-time (?:code|password)s?|(?:2fa|mfa|verification|security|sign-in|login) codes?|credentials?|(?:login|sign-in) details)\b/i;
/** Handing a secret over or typing it in (entering, sending, sharing, confirming, verifying), or asking for it. */
const HAND_OVER =
  /\b(?:re-?enter(?:s|ed|ing)?|enter(?:s|ed|ing)?|type|typing|input|submit(?:s|ted|ting)?|send(?:s|ing)?|sent|share|shar(?:es|ed|ing)|provide|provid(?:es|ed|ing)|give|giv(?:es|ing)|supply|confirm(?:s|ed|ing)?|re-?confirm|verify|verif(?:ies|ied|ying)|validate|re-?validate|paste|post(?:s|ed|ing)?|publish(?:es|ed|ing)?|put|write|drop|reply|respond|e-?mail|forward|disclose|reveal|tell(?!\s+you\b)|update|reset|renew|(?:log|sign)[ -]?in(?!\s*(?:page|form|code|screen|flow|details|attempt|button|name|field)s?\b)|re-?authenticate|authenticate|ask(?:s|ed|ing)? (?:you )?for|request(?:s|ed|ing)?)\b(?!-)/i;
/**
 * The reader addressed ('your', 'you'). Not 'us' or 'me': a design says 'Vault can give us
 * short-lived credentials'; an order to send the writer a secret opens the sentence and is caught so.
 */
const READER_ASKED = /\b(?:you|your|yours|yourself)\b/i;
/** What may come before the verb of an order that opens a sentence: courtesies and adverbs of time. */
const ORDER_OPENING_WORDS = String.raw`^\W*(?:(?:please|kindly|now|first|then|just|simply|quickly|immediately)\W+)*`;
/**
 * Someone a secret would go to, whatever the verb ('… to Sam Reed', '… with me', 'Sam needs
 * everyone's PIN', '… aloud in the stand-up'): a person's secret has no recipient in a design.
 */
const RECIPIENT =
  /\b(?:needs?|wants?|collects?|collecting|gathers?|gathering|requires?|gets?|getting|has|have|receives?|receiving|obtains?)\s+(?:your|every(?:one|body)['’]?s|all (?:the |your |our |their )?|(?:each|every) (?:single )?(?:[\w-]+\s+)?[\w-]+['’]?s|(?:the\s+)?(?:pins?|passcodes?|passwords?|login codes?)\b)|\b(?:send|sent|hand|handed|turn|turned)(?:s|ing)?\s+in\b|\b(?:aloud|out loud)\b|\b(?:in|on|into)\s+(?:the|a|our|this)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:call|meeting|stand-?up|bridge|huddle)\b|\b(?:dm|direct message|private message|pm)\b/iu;
/** A person, by name, told or shown a secret ('message Sam their PIN', 'let Sam know your PIN'): names are capitalised, so case counts. */
const TOLD_BY_NAME =
  /\b(?:[Mm]essage|[Tt]ell|[Tt]ext|[Pp]ing|[Rr]ead|D[Mm]|dm|[Ee]-?mail|[Gg]ive|[Ss]how|[Hh]and|[Ss]end)\s+(?!The\b|A\b|An\b|It\b|This\b)[A-Z][\p{L}'-]+\b|\b[Ll]et\s+(?:me|us|[A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)?)\s+(?:know|have|see)\b/u;
/** A person named as where a secret goes ('to Sam Reed', 'with me'): with a verb of handing over, since a product is named so too ('rotate with Vault'). */
const TO_SOMEONE = /\b(?:[Tt]o|[Ww]ith)\s+(?:me|us|(?!the\b|a\b|an\b)[A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)?)\b/u;
/** A secret kept, not handed over: 'never share your PIN', 'do not send passwords'. */
const KEPT = /\b(?:never|not|n't|no one|nobody|don'?t|do not)\b/i;

/** Giving a secret away or typing it somewhere, not keeping it up ('update', 'reset' and 'renew' are a policy's words). */
const GIVEN_AWAY =
  /\b(?:(?:re-?enter|enter|type|input|submit|send|provide|supply|confirm|post|publish|drop|reply|e-?mail|forward|disclose|reveal|hand|message|ping|dm|text|collect|gather)(?:s|es|ed|d|ing)?|shar(?:e|es|ing)|past(?:e|es|ing)|pass(?:es|ing)?|verif(?:y|ies|ied|ying)|giv(?:e|es|en|ing)|gave|sent|put(?:s|ting)?|writ(?:e|es|ten|ing)|wrote|tell(?:s|ing)?(?!\s+you\b)|told|read(?:s|ing)?|go(?:es|ing)?|went)\b(?!-)/i;
/** An order that opens the sentence ('Enter the team password below'), politely or not, with a verb of giving it away. */
const ORDER_OPENING = new RegExp(`${ORDER_OPENING_WORDS}${GIVEN_AWAY.source}\\s+(?:(?:it\\s+)?(?:in|over|back|out)\\s+)?(?:your|the|their|our|my|a|an|this|that|it|me|us|them)\\b`, 'i');
/** The act described under a condition ('when you enter your PIN wrong five times'), not asked for. */
const UNDER_A_CONDITION = new RegExp(`\\b(?:when|whenever|if|after|before|once|until|each time|every time)\\s+(?:\\w+\\s+){0,3}?${HAND_OVER.source}`, 'i');
/** Somewhere a secret is handed to: a page, a form, a sheet, a channel, a host, an e-mail, 'here', 'below'. */
const HANDED_TO =
  /\b(?:on|at|in|into|via|through|with|to)\s+(?:the|this|a|our)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:page|form|site|sheet|spreadsheet|doc|document|wiki|portal|link|channel|inbox|address|thread|chat)\b|\b(?:in|on) the (?:wiki|form|sheet|spreadsheet|doc|chat|channel|thread)\b|\b(?:at|via)\s+[\p{L}\d]+[-.][\p{L}\d.-]*\p{L}|\bby (?:e-?mail|dm|direct message|text)\b|\b(?:here|below)\b/iu;

/**
 * Whether a sentence asks for a secret: a person's secret named with someone or somewhere it would
 * go ('every member should send their PIN to Sam', 'Sam needs everyone's PIN'), whatever the verb;
 * or a secret and a way of handing it over, addressed to the reader ('re-enter your password') or
 * ordered outright ('Enter the team passcode below'). Advice to keep a secret, a design describing
 * what happens when one is typed, and a design's own sentences about tokens and keys ('the gateway
 * verifies tokens', 'send the API key in a header') ask for nothing.
 */
export function asksForSecret(sentence: string): boolean {
  const normal = normalise(sentence);
  const personal = PERSONAL_SECRET.test(normal) || PIN.test(normal);
  // Advice to keep a secret ('never share your PIN') asks for nothing.
  if (KEPT.test(normal)) return false;
  if (personal && (RECIPIENT.test(normal) || TOLD_BY_NAME.test(normal) || (GIVEN_AWAY.test(normal) && (TO_SOMEONE.test(normal) || HANDED_TO.test(normal))))) return true;
  if (!(personal || SECRET.test(normal)) || !HAND_OVER.test(normal)) return false;
  // A design describing what happens when someone types a secret ('when you enter your PIN wrong
  // five times') asks for none.
  if (UNDER_A_CONDITION.test(normal) && !ORDER_OPENING.test(normal)) return false;
  if (READER_ASKED.test(normal)) return true;
  return personal && ORDER_OPENING.test(normal);
}

// ---------------------------------------------------------------- consensus and outcome claims

/** The group, as the one who holds a view: 'everyone', 'all seven of us', 'the whole team', 'every reviewer'. */
const THE_GROUP = String.raw`(?:every(?:one|body)|all (?:\w+ )?of us|we all|(?:the|our) (?:whole |entire )?(?:team|group|panel|reviewers)|all (?:the )?(?:reviewers|members|participants|engineers|stakeholders|voters|teams)|every (?:single )?(?:reviewer|member|participant|engineer|stakeholder|voter|team))`;
/** Words that may stand between a subject and its verb without changing what is claimed ('has', 'already', 'fully'). */
const BETWEEN = String.raw`(?:\W+(?:\w+ly|all|now|already|has|have|had|did|does|do|here|also|just|still|then|in|on|of|us|the|this|that|thread|review|call|page|sync|meeting)){0,4}`;
/** What the review is about, as the thing decided: 'the design', 'this component', 'the debate'. */
const THE_MATTER = String.raw`(?:this|that|the) (?:design|proposal|architecture|plan|approach|component|section|page|item|question|matter|debate|issue|discussion|review|thread|point)`;
const IS_NOW = String.raw`\W+(?:is|was|has been|have been|are|were)\W+(?:now\W+|fully\W+|already\W+)?`;

/**
 * A claim about what the group thinks or has decided, or about the outcome of the review. Only the
 * votes can support one, and the analyzer states those in its own words; the same claim in a
 * comment's words is one member speaking for all.
 */
const CLAIMS = [
  // Agreement as a noun: 'the consensus is', 'unanimous', 'full agreement'.
  /\b(?:consensus|unanimous(?:ly)?|unanimity|(?:general|broad|full|complete|total) agreement)\b/i,
  // The whole group agreeing or deciding: 'every reviewer agrees', 'all of us signed off' (with at
  // most a few adverbs or auxiliaries between, so 'the team is divided on approve…' is no claim).
  new RegExp(
    String.raw`\b${THE_GROUP}\b${BETWEEN}\W+(?:agree[sd]?|concur(?:s|red)?|approve[sd]?|accept(?:s|ed)?|endorse[sd]?|support(?:s|ed)?|back(?:s|ed)?|signed off|sign off|(?:is|are|was|were) (?:\w+ly )?(?:aligned|behind|happy with|satisfied with|fine with|in favou?r))\b`,
    'i',
  ),
  // Agreement as already reached: 'as agreed', 'the agreed timeout', 'agreed by the team'.
  /\bas (?:agreed|decided)\b|\bthe agreed\b|\bagreed (?:on )?by (?:the|all|every)/i,
  // Nobody against: 'no one objects', 'without objection' (not a condition: 'if nobody objects').
  /(?<!\b(?:if|unless|when|until|once)\s)\b(?:no ?one|nobody|none of (?:us|the (?:reviewers|members)))\W+(?:\w+\W+)?(?:disagrees?|objects?|opposes?|dissents?)\b|\bwithout (?:any )?(?:objection|dissent)\b/i,
  // The review or the team as the one who decided: 'the review concluded', 'the team has decided'.
  /\b(?:the|this) (?:review|team|group|discussion|panel|committee|board|reviewers)\W+(?:has\W+|have\W+)?(?:concluded|decided|determined|resolved|ruled|agreed|approved|signed off|settled)\b/i,
  // An outcome stated as done: 'it was agreed', 'this component is approved', 'debate closed',
  // 'report it as agreed' (not 'mark the incident as resolved', which is how incidents end).
  new RegExp(String.raw`\b(?:it|this|that)${IS_NOW}(?:agreed|approved|settled|decided|final(?:ised|ized)?|signed off|ratified)\b`, 'i'),
  new RegExp(String.raw`\b${THE_MATTER}${IS_NOW}(?:agreed|approved|settled|decided|final(?:ised|ized)?|signed off|ratified|closed|concluded|done|over)\b`, 'i'),
  /\b(?:debate|discussion|question|matter|review|thread|item)s? (?:closed|concluded|settled)\b|\b(?:treat|record|present|describe|report|list)\w* (?:\w+ ){0,4}as (?:approved|settled|agreed|accepted|final)\b/i,
  // A verdict given as a label or a quotation: 'Status: APPROVED', "'approved for go-live'".
  /(?:^|[:'"“‘]\s*)(?:unanimously |fully )?(?:approved|accepted|signed off)\b/i,
  // The outcome named: 'Settled.', 'settled in favour of', 'the final takeaway', 'the result of the
  // review' (not a hope or a doubt: 'I don't see this getting settled here').
  /^\W*settled\b|\bsettled (?:in favou?r|offline|already)\b|\b(?:is|are|was|were|been|now) settled\b/i,
  /\b(?:final decision|(?:final|net) (?:result|outcome|takeaway|verdict|decision|conclusion)|(?:review's|team's|group's) (?:verdict|decision|conclusion))\b/i,
  /\b(?:result|outcome|conclusion|takeaway|upshot|verdict|decision)s? of (?:the|this|our) (?:review|discussion|thread|sync|meeting|call|debate)\b|\bthe outcome (?:is|was|to record)\b/i,
  // No change called for: 'nothing should change', 'no changes are needed', 'no open items'.
  // ('nothing unreviewed should change the billing tables' is a request about those tables, not a verdict: a
  // verdict's 'change' has no object after it).
  /\b(?:nothing|none of (?:it|this))(?:\W+\w+){0,4}?\W+(?:should|needs? to|must|has to|is to|will|ought to)\W+(?:be\W+)?chang(?:e|ed|es|ing)\b(?=\s*(?:$|[.,;:!?)"'”’…]|(?:in|about|for|here|now|at|until|before|after|with|on|yet|and|or|but|so|there|anything|further)\b))/i,
  /\bno (?:further )?(?:changes?|follow-?up(?: work)?|action) (?:is |are )?(?:needed|required|necessary|warranted)\b|\b(?:needs|requires) no (?:further )?changes?\b|\bleave (?:it|this|everything) as (?:it is|is)\b|\bnothing (?:further |more |else )?to (?:change|fix)\b/i,
  /\bno (?:open|outstanding|remaining|further) (?:concerns?|issues?|items?|objections?|questions?|points?|blockers?|action items?)\b|\bno (?:concerns?|issues?|objections?) (?:were |was )?(?:raised|found|remain\w*|left)\b/i,
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
  // NFKC folds the full-width '＠' and '．' but not the ideographic and half-width full stops.
  return text.normalize('NFKC').replace(/[\p{Cf}]/gu, '').replace(/[。｡]/g, '.');
}

// ---------------------------------------------------------------- sentences

const END_MARKS = new Set(['.', '!', '?', '…']);
const CLOSERS = new Set(['"', "'", ')', ']', '’', '”']);

/**
 * The text cut into sentences, each with the space before it, so that joining them gives the text
 * back. A sentence ends at . ! ? (and any closing quote or bracket) before a space, or at a line
 * break; not inside “curly quotes”, where the analyzer quotes a comment whole.
 */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let depth = 0;
  let start = 0;
  const closing = (char: string) => CLOSERS.has(char);
  const space = (char: string) => char === '' || /\s/.test(char);
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (char === '“') depth++;
    else if (char === '”') depth = Math.max(0, depth - 1);
    if (char !== '\n' && !(depth === 0 && END_MARKS.has(char))) continue;
    const next = text.charAt(i + 1);
    if (char !== '\n' && !(space(next) || (closing(next) && space(text.charAt(i + 2))))) continue;
    let end = i + 1;
    while (end < text.length && closing(text.charAt(end))) end++;
    sentences.push(text.slice(start, end));
    start = end;
    i = end - 1;
  }
  if (start < text.length) sentences.push(text.slice(start));
  return sentences;
}

/**
 * A comment the outputs may neither cite nor quote: one that asks its reader for a secret. Cited,
 * the tool would vouch for it, and quoted, its request would be the tool's. A comment that claims
 * consensus or an outcome is a member's view like any other and is read: only an output sentence
 * that repeats such a claim in the comment's words goes (objectionTo), since agreement is the
 * votes' to show. Setting such comments aside would drop real points ('as agreed in the retro').
 */
export function untrustworthy(comment: string): boolean {
  return whyUntrustworthy(comment) !== undefined;
}

function whyUntrustworthy(comment: string): keyof typeof WITHHELD_REASONS | undefined {
  const sentences = sentencesOf(comment);
  if (sentences.some(asksForSecret)) return 'secret';
  return undefined;
}

interface Quotable {
  id: number;
  content: string;
}

/** What an output was made from: what its sentences may repeat, and what its claims may cite. */
export class MadeFrom {
  private readonly texts: readonly string[];
  private anyTextRuns: CopiedRuns | undefined;
  private readonly untrustworthyText: CopiedRuns;
  private readonly untrustworthyIds: ReadonlySet<number>;

  /**
   * `alsoRead`: other texts the output may repeat (a narrative's suggestions), cited by other ids;
   * `untrustworthyIds`: the comments already found untrustworthy (withhold), so as not to read them twice.
   */
  constructor(comments: readonly Quotable[], options: { alsoRead?: readonly string[]; untrustworthyIds?: ReadonlySet<number> } = {}) {
    this.untrustworthyIds = options.untrustworthyIds ?? new Set(comments.filter((comment) => untrustworthy(comment.content)).map((comment) => comment.id));
    this.untrustworthyText = new CopiedRuns(comments.filter((comment) => this.untrustworthyIds.has(comment.id)).map((comment) => comment.content));
    this.texts = [...comments.map((comment) => comment.content), ...(options.alsoRead ?? [])];
  }

  /** Runs of every text read: built only when an output sentence claims consensus, which few do. */
  private get anyText(): CopiedRuns {
    this.anyTextRuns ??= new CopiedRuns(this.texts);
    return this.anyTextRuns;
  }

  /** Why a sentence may not stand in an output, or undefined when it may. */
  objectionTo(sentence: string): 'address' | 'secret' | 'copied claim' | 'untrustworthy comment' | undefined {
    if (hasAddress(sentence)) return 'address';
    if (asksForSecret(sentence)) return 'secret';
    if (this.untrustworthyText.copiedIn(sentence)) return 'untrustworthy comment';
    if (claimsConsensus(sentence) && this.anyText.copiedIn(sentence)) return 'copied claim';
    return undefined;
  }

  /** Whether a text (a suggestion made before the guard) repeats a run of an untrustworthy comment. */
  repeatsUntrustworthy(text: string): boolean {
    return this.untrustworthyText.copiedIn(text);
  }

  /** The ids a claim may cite. */
  citable(ids: readonly number[]): number[] {
    return ids.filter((id) => !this.untrustworthyIds.has(id));
  }
}

/** The text without its objectionable sentences; unchanged when it has none. */
export function guardText(text: string, from: MadeFrom): string {
  const sentences = sentencesOf(text);
  const kept = sentences.filter((sentence) => from.objectionTo(sentence) === undefined);
  if (kept.length === sentences.length) return text;
  return kept.join('').replace(/^\s+/, '').trimEnd();
}

/**
 * A claim as it may stand: its text guarded and its sources citable, or nothing when its text is
 * gone or every source it had is one it may not cite (it said what those said).
 */
function guardClaim(text: string, sources: readonly number[], from: MadeFrom): { text: string; sources: number[] } | undefined {
  const kept = guardText(text, from);
  const citable = from.citable(sources);
  if (kept === '' || (sources.length > 0 && citable.length === 0)) return undefined;
  return { text: kept, sources: citable };
}

// ---------------------------------------------------------------- the three outputs

/** A summary's themes, changes and reading guarded; its list of comments set aside passes as it is. */
export function guardSummary(output: CommentSummaryOutput, from: MadeFrom): CommentSummaryOutput {
  const themes = output.keyThemes.flatMap((theme, index) => guardClaim(theme, output.sources.keyThemes[index] ?? [], from) ?? []);
  const content = guardClaim(output.contentChanges, output.sources.contentChanges, from) ?? { text: '', sources: [] };
  const structural = guardClaim(output.structuralChanges, output.sources.structuralChanges, from) ?? { text: '', sources: [] };
  return {
    ...output,
    understanding: guardText(output.understanding, from),
    contentChanges: content.text,
    structuralChanges: structural.text,
    keyThemes: themes.map(({ text }) => text),
    sources: { keyThemes: themes.map(({ sources }) => sources), contentChanges: content.sources, structuralChanges: structural.sources },
  };
}

export function guardSuggestions(output: SuggestionsOutput, from: MadeFrom): SuggestionsOutput {
  return {
    suggestions: output.suggestions.flatMap((suggestion) => {
      const claim = guardClaim(suggestion.suggestion, suggestion.sources, from);
      // A suggestion must cite at least one comment (the contract's rule).
      return claim === undefined || claim.sources.length === 0 ? [] : [{ ...suggestion, suggestion: claim.text, sources: claim.sources }];
    }),
  };
}

/**
 * `from`: the comments the suggestions follow from, and the suggestions' texts (which carry their
 * words); `withheldSuggestions`: suggestions the narrative may not cite (see guardedProvider).
 */
export function guardNarrative(output: NarrativeOutput, from: MadeFrom, withheldSuggestions: ReadonlySet<number> = new Set()): NarrativeOutput {
  const guard = (text: string) => guardText(text, from);
  // An item that cited only withheld suggestions said what they said: it goes.
  const cites = (sources: readonly number[]) => {
    const citable = sources.filter((id) => !withheldSuggestions.has(id));
    return sources.length > 0 && citable.length === 0 ? undefined : citable;
  };
  return {
    ...output,
    overallConsensus: guard(output.overallConsensus),
    keyThemes: output.keyThemes.flatMap((theme) => {
      const name = guard(theme.theme);
      const sources = cites(theme.sources);
      return name === '' || sources === undefined ? [] : [{ ...theme, theme: name, description: guard(theme.description), sources }];
    }),
    actionItems: output.actionItems.flatMap((item) => {
      const action = guard(item.action);
      const sources = cites(item.sources);
      return action === '' || sources === undefined ? [] : [{ ...item, action, reasoning: guard(item.reasoning), sources }];
    }),
    conflicts: output.conflicts.flatMap((conflict) => {
      const topic = guard(conflict.topic);
      const sources = cites(conflict.sources);
      return topic === '' || sources === undefined
        ? []
        : [{ ...conflict, topic, description: guard(conflict.description), suggestedResolution: guard(conflict.suggestedResolution), sources }];
    }),
  };
}

/** Why the guard kept a comment from the provider, in the words the comment panel shows a member. */
export const WITHHELD_REASONS = {
  secret: 'Asks for a password or another secret',
} as const;

/**
 * The comments a provider may read, and those it may not (untrustworthy): what it never reads, it
 * can neither repeat nor cite, nor make a theme of that crowds out the team's own. `from` is what
 * its output is then guarded against: every comment, those withheld included.
 */
export function withhold<Comment extends Quotable>(comments: readonly Comment[]): { kept: Comment[]; withheld: SetAside[]; from: MadeFrom } {
  const kept: Comment[] = [];
  const withheld: SetAside[] = [];
  for (const comment of comments) {
    const why = whyUntrustworthy(comment.content);
    if (why === undefined) kept.push(comment);
    else withheld.push({ id: comment.id, reason: WITHHELD_REASONS[why] });
  }
  return { kept, withheld, from: new MadeFrom(comments, { untrustworthyIds: new Set(withheld.map((entry) => entry.id)) }) };
}

/**
 * The provider with every output it makes guarded: the comments it may not read withheld from it
 * (a summary lists them with the comments it set aside), and each output guarded against all of
 * them. Its prompt version says so, so outputs stored unguarded are made again.
 */
export function guardedProvider(provider: AiProvider): AiProvider {
  return {
    name: provider.name,
    model: provider.model,
    promptVersion: (kind, promptId) => `${provider.promptVersion(kind, promptId)}+${OUTPUT_GUARD_VERSION}`,
    async summarizeComments(input, signal) {
      const { kept, withheld, from } = withhold(input.comments);
      const output = guardSummary(await provider.summarizeComments({ ...input, comments: kept }, signal), from);
      const listed = new Set(output.setAside.map((entry) => entry.id));
      const setAside = [...output.setAside, ...withheld.filter((entry) => !listed.has(entry.id))].sort((a, b) => a.id - b.id).slice(0, SET_ASIDE_MAX);
      return { ...output, setAside };
    },
    async generateSuggestions(input, signal) {
      const { kept, from } = withhold(input.comments);
      return guardSuggestions(await provider.generateSuggestions({ ...input, comments: kept }, signal), from);
    },
    async narrativeSummary(input, signal) {
      const sourceComments = input.sourceComments ?? [];
      const { kept, withheld } = withhold(sourceComments);
      const untrustworthyIds = new Set(withheld.map((entry) => entry.id));
      const texts = input.suggestions.map((suggestion) => suggestion.suggestion);
      const from = new MadeFrom(sourceComments, { alsoRead: texts, untrustworthyIds });
      // A suggestion stored before this guard may still follow only from such comments, or repeat one.
      const withheldSuggestions = new Set(
        input.suggestions
          .filter((suggestion) => from.repeatsUntrustworthy(suggestion.suggestion) || (suggestion.sourceIds !== undefined && suggestion.sourceIds.length > 0 && suggestion.sourceIds.every((id) => untrustworthyIds.has(id))))
          .map((suggestion) => suggestion.id),
      );
      const readable = {
        ...input,
        suggestions: input.suggestions.filter((suggestion) => !withheldSuggestions.has(suggestion.id)),
        ...(input.sourceComments === undefined ? {} : { sourceComments: kept }),
      };
      return guardNarrative(await provider.narrativeSummary(readable, signal), from, withheldSuggestions);
    },
  };
}
