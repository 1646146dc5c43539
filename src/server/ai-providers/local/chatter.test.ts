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
    const aside = 'Happy to pick up the vendor case with their support lead on Monday, I know the portal team and their phone number from my old job, so the night shift can chase it.';
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
    // 'night', 'shift', 'pages', 'secondary', 'rota', 'minutes' and more are the thread's; 'quiz', 'pub' and 'team' make it chatter.
    const aside = 'Pub quiz team for Friday night needs a secondary player, the night shift pages us anyway so come along; the on-call rota allows ten minutes from the dispatch floor.';
    const strong = { bias: -10, weights: { [stem('quiz')]: 8, [stem('pub')]: 8, [stem('team')]: 8 } };
    const weak = { bias: -10, weights: { [stem('quiz')]: 4, [stem('pub')]: 4, [stem('team')]: 4 } };
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

  it('keeps a comment in the component’s own vocabulary, from its description, whatever its other words', () => {
    // A word the model takes for chatter ('spare', as in spare time), in a point about what the
    // component does: the description names the spare-part stock the point is about.
    const model = { bias: -2, weights: { [stem('spare')]: 3 } };
    const point = 'Spare parts shown at the depot are a day old; let the driver confirm the part first.';
    const reading = { ...words, chatter: model };
    expect([...chatterIn(PAGING, discussion([...THREAD, point]), reading)]).toEqual([5]);
    const description = 'Pages the on-call engineer and proposes a technician dispatch from the spare-part stock at the nearest depot; the driver confirms the part.';
    expect([...chatterIn(PAGING, discussion([...THREAD, point]), reading, description)]).toEqual([]);
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
    // Words of the point alone: the thread's 'radio console' is no aside.
    const chatter = { bias: -10, weights: { [stem('backup')]: 8, [stem('site')]: 8, [stem('entry')]: 8 } };
    const trained = await createLocalProvider().summarizeComments(input);
    const given = await createLocalProvider({ wordModels: { chatter, steering: words.steering } }).summarizeComments(input);
    expect(trained.understanding).not.toContain('about other things');
    expect(given.understanding).toContain('1 comment about other things was left out.');
  });
});

describe('what the chatter model takes as no evidence', () => {
  // A thread on keeping audit records; none of its words are the review's subject.
  const RETENTION = 'Audit Record Retention';
  const LEDGER = [
    'Keep the audit records for seven years, the regulator asks for that on every inspection.',
    'Seven years is fine for the ledger, but the raw webhook payloads can go after ninety days.',
    'Ninety days is too short for the payloads when a dispute runs past a quarter.',
    'Store the payloads compressed in cold storage after thirty days, the cost is small.',
    'Who signs off deleting records early when a customer asks to be forgotten?',
  ];

  it('reads the review’s own subject words as nothing, in either model', () => {
    for (const word of ['architecture', 'diagrams', 'component', 'AI', 'assistant', 'models', 'summary', 'review']) {
      for (const model of [words.chatter, words.steering]) expect(wordScore(modelWords(word, stem), model), word).toBe(model.bias);
    }
  });

  it('keeps a real point that names the architecture diagram, the AI, its model and the summary', () => {
    const point = 'Put the retention field on the architecture diagram, so the AI model cites it in its summary of each record.';
    expect([...chatterIn(RETENTION, discussion([...LEDGER, point]), words)]).toEqual([]);
    // Its subject words alone are no evidence either way.
    const subject = modelWords('architecture diagram AI model summary', stem);
    expect(wordScore(subject, words.chatter)).toBe(words.chatter.bias);
  });

  it('gives a teammate’s name no weight, even where a model would, nor the words of the title read', () => {
    // A model for which 'oksana' and 'retention' are chatter through and through.
    const model = { bias: -10, weights: { [stem('oksana')]: 12, [stem('retention')]: 12 } };
    const reading = { ...words, chatter: model };
    const asks = 'Oksana, could legal confirm the ninety days in writing?';
    const thread = [...LEDGER, asks].map((content, i) => ({ content, memberName: i === 2 ? 'Oksana Lund' : `Member ${i}` }));
    expect([...chatterIn(RETENTION, thread, reading)]).toEqual([]);
    // The same comment where nobody is called Oksana: the name is just a word, and weighs.
    expect([...chatterIn(RETENTION, discussion([...LEDGER, asks]), reading)]).toEqual([5]);
    const titled = 'Retention of the webhook payloads belongs with legal, not us.';
    expect([...chatterIn(RETENTION, discussion([...LEDGER, titled]), reading)]).toEqual([]);
    expect([...chatterIn('Payload Storage', discussion([...LEDGER, titled]), reading)]).toEqual([5]);
  });
});
