import { beforeAll, describe, expect, it } from 'vitest';
import { chatterIn, CHATTER_SCORE, LONE_CHATTER_SCORE, MIN_DISCUSSION } from './chatter.js';
import { COMPONENTS, comment } from './fixtures/comments.js';
import { createLocalProvider } from './local-provider.js';
import { offTopic } from './relevance.js';
import { loadReader } from './wink.js';
import { Analyzer } from './analysis.js';
import { modelWords, wordScore, type WordReading } from './word-model.js';

/** Chatter found by its words and by standing apart from the thread, voted or not. */

let words: WordReading;
let stem: (word: string) => string;
beforeAll(async () => {
  words = new Analyzer(await loadReader()).words;
  stem = words.stem;
});

const PAGING = 'On-Call Paging and Escalation';
/** Texts as one discussion, each by a member of its own. */
const discussion = (texts: readonly string[]) => texts.map((content, i) => ({ content, memberName: `Member ${i}` }));
const THREAD = [
  'Stop paging the on-call for P2s at night; send them as low-urgency pushes for the morning shift.',
  'I disagree, a P2 at night can be a lost radio console and the night shift needs someone paged for it.',
  'Escalate to the secondary after five minutes without an acknowledgement for P1s.',
  'Ten minutes before the secondary is paged is too long for a P1 on the dispatch floor.',
  'Track pages per person per month so the night load is shared fairly across the on-call rota.',
];

describe('chatterIn', () => {
  it('finds a comment about life, whatever its words, and keeps every comment of the thread', () => {
    const texts = [...THREAD, "Photos from my sister's wedding in Lisbon are finally up, and the cake survived the heat!"];
    expect([...chatterIn(PAGING, discussion(texts), words)]).toEqual([5]);
  });

  it('keeps a comment whose words read as chatter when it shares the thread’s words', () => {
    // A model for which 'happy', 'monday' and 'job' lean to chatter: the words shared decide.
    const model = { bias: -10, weights: { [stem('happy')]: 5, [stem('monday')]: 5, [stem('job')]: 5 } };
    const aside = 'Happy to pick up the vendor case with their support lead on Monday, I know the portal team from my old job.';
    expect(wordScore(modelWords(aside, stem), model)).toBeGreaterThan(CHATTER_SCORE);
    const vendorThread = [
      'Open a case with the CAD vendor automatically when the application itself is down.',
      'The vendor support portal needs the build number and the log bundle, or they bounce the case.',
      "Escalate to the vendor's support lead when a P1 case sits unanswered for thirty minutes.",
      'Keep the vendor case number on the incident so the night shift can chase it.',
      'Vendor support answers faster by phone than through the portal at night.',
    ];
    expect([...chatterIn('Vendor Escalation', discussion([...vendorThread, aside]), { ...words, chatter: model })]).toEqual([]);
    // The same words in a thread they share nothing with are chatter.
    expect([...chatterIn(PAGING, discussion([...THREAD, aside]), { ...words, chatter: model })]).toEqual([5]);
  });

  it('finds an aside that uses a few of the thread’s words when its words are chatter through and through', () => {
    // 'night', 'shift', 'pages' and 'secondary' are the thread's; 'quiz', 'pub' and 'team' make it chatter.
    const aside = 'Pub quiz team for Friday night needs a secondary player, the night shift pages us anyway so come along.';
    const strong = { bias: -10, weights: { [stem('quiz')]: 8, [stem('pub')]: 8, [stem('team')]: 8 } };
    const weak = { bias: -10, weights: { [stem('quiz')]: 4.5, [stem('pub')]: 4.5, [stem('team')]: 4.5 } };
    const texts = discussion([...THREAD, aside]);
    expect([...chatterIn(PAGING, texts, { ...words, chatter: strong })]).toEqual([5]);
    // As many shared words with weaker evidence stay on the thread: each shared word past the few asks more.
    expect(wordScore(modelWords(aside, stem), weak)).toBeGreaterThan(CHATTER_SCORE);
    expect([...chatterIn(PAGING, texts, { ...words, chatter: weak })]).toEqual([]);
  });

  it('sets aside a comment that answers nobody on weaker evidence, and keeps a reply in the same words', () => {
    // A score between the two thresholds: enough for a comment apart from everyone, not for one that answers.
    const model = { bias: -10, weights: { [stem('desk')]: 10 } };
    const aside = 'Standing desk for sale, barely used, collection from Leeds.';
    const score = wordScore(modelWords(aside, stem), model);
    expect(score).toBeGreaterThan(LONE_CHATTER_SCORE);
    expect(score).toBeLessThanOrEqual(CHATTER_SCORE);
    const reading = { ...words, chatter: model };
    expect([...chatterIn(PAGING, discussion([...THREAD, aside]), reading)]).toEqual([5]);
    for (const reply of [`Deal. ${aside}`, `Agree with Member 1. ${aside}`, `Member 2, ${aside}`]) {
      expect([...chatterIn(PAGING, discussion([...THREAD, reply]), reading)], reply).toEqual([]);
    }
  });

  it('reads nothing as chatter in a discussion too short to have a thread', () => {
    const texts = [THREAD[0] ?? '', "Photos from my sister's wedding in Lisbon are finally up, and the cake survived the heat!"];
    expect(texts.length).toBeLessThan(MIN_DISCUSSION);
    expect([...chatterIn(PAGING, discussion(texts), words)]).toEqual([]);
  });
});

describe('offTopic with the analyzer’s word models', () => {
  it('sets aside chatter colleagues voted for; without the models only the phrase rules apply', () => {
    const comments = [...THREAD, 'Thanks everyone for the flowers and the card after my mum came out of hospital, she is home and bossing us about.'].map((text, i) =>
      comment(i + 1, COMPONENTS.triage, `Member ${i}`, text, { up: i === 5 ? 3 : 1 }),
    );
    expect([...offTopic(comments, words)]).toEqual([5]);
    expect([...offTopic(comments)]).toEqual([]);
  });
});

describe('the local provider with word models of its own', () => {
  it('reads chatter with the models it is given, as the evaluation at first sight does', async () => {
    // A point on the thread in words of its own: the trained models keep it; models for which its words are chatter set it aside.
    const point = 'Radio consoles at the backup site need their own rota entry.';
    const comments = [...THREAD, point].map((text, i) => comment(i + 1, COMPONENTS.triage, `Member ${i}`, text, { up: 1 }));
    const input = { ...COMPONENTS.triage, comments };
    const chatter = { bias: -10, weights: { [stem('radio')]: 8, [stem('console')]: 8, [stem('backup')]: 8 } };
    const trained = await createLocalProvider().summarizeComments(input);
    const given = await createLocalProvider({ wordModels: { chatter, steering: words.steering } }).summarizeComments(input);
    expect(trained.understanding).not.toContain('about other things');
    expect(given.understanding).toContain('1 comment about other things was left out.');
  });
});
