import type { ItsFunction, WinkMethods } from 'wink-nlp';

/**
 * A small typed wrapper around wink-nlp: the model is loaded once per process, on first use (it costs
 * about 60 ms and 60 MB), and a text is read into plain arrays so the analysis never touches wink's
 * loosely typed `out()` results.
 */

export interface ReadToken {
  /** The token as written. */
  value: string;
  /** Lowercased. */
  normal: string;
  /** Lowercased lemma ('groups' -> 'group'). */
  lemma: string;
  pos: string;
  /** wink's token type: 'word', 'number', 'punctuation', 'symbol', 'url', 'email', ... */
  type: string;
  stop: boolean;
  /** Inside the scope of a negation ('not', "n't", 'never'). */
  negated: boolean;
}

export interface ReadSentence {
  text: string;
  /** Token index range, inclusive. */
  start: number;
  end: number;
  /** wink's sentiment score, -1..1. */
  sentiment: number;
}

export interface ReadText {
  tokens: ReadToken[];
  sentences: ReadSentence[];
}

export interface Reader {
  read(text: string): ReadText;
  /**
   * The Porter2 stem of a lowercase word ('escalation' and 'escalate' give 'escal'). One function
   * for the reader's life, so what is read through it can be cached by it (word-model.ts).
   */
  readonly stem: (word: string) => string;
}

interface ItsFunctions {
  readonly normal: ItsFunction<string>;
  readonly lemma: ItsFunction<string>;
  readonly pos: ItsFunction<string>;
  readonly type: ItsFunction<string>;
  readonly stopWordFlag: ItsFunction<boolean>;
  readonly negationFlag: ItsFunction<boolean>;
  readonly span: ItsFunction<number[]>;
  readonly sentiment: ItsFunction<number>;
}

let loading: Promise<Reader> | undefined;

/** The process-wide reader; the model is loaded by the first call. A failed load is retried by the next call. */
export function loadReader(): Promise<Reader> {
  loading ??= createReader().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function createReader(): Promise<Reader> {
  const [{ default: winkNLP }, { default: model }] = await Promise.all([import('wink-nlp'), import('wink-eng-lite-web-model')]);
  // Named entities and custom entities are not used: leaving them out of the pipe saves a third of the reading time.
  const stem = model.addons.stem;
  if (!isStemmer(stem)) throw new Error('wink-eng-lite-web-model has no stemmer');
  return wrap(winkNLP(model, ['sbd', 'negation', 'sentiment', 'pos']), stem);
}

/** The model declares its stemmer as `unknown`; it is Porter2, a function of one word. */
function isStemmer(value: unknown): value is (word: string) => string {
  return typeof value === 'function' && value.length === 1;
}

/** Words stemmed so far: a review's vocabulary is small and repeats. */
const MAX_STEMS = 50_000;

function strings(values: readonly unknown[]): string[] {
  return values.map((value) => (typeof value === 'string' ? value : String(value)));
}

function booleans(values: readonly unknown[]): boolean[] {
  return values.map((value) => value === true);
}

function numbers(values: readonly unknown[]): number[] {
  return values.map((value) => (typeof value === 'number' && Number.isFinite(value) ? value : 0));
}

function spans(values: readonly unknown[]): Array<[number, number]> {
  return values.map((value) => {
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'number') return [value[0], value[1]];
    throw new Error('wink-nlp returned a sentence span that is not [start, end]');
  });
}

function wrap(nlp: WinkMethods, stemOf: (word: string) => string): Reader {
  // `out()` only runs the `its` functions it knows by identity, so wink's own functions must be passed;
  // they never use `this`, but wink declares them as methods (and `lemma` with a signature its own
  // `out()` does not accept), hence this one view of them as plain functions.
  const its = nlp.its as unknown as ItsFunctions;
  const stems = new Map<string, string>();
  return {
    stem: (word: string): string => {
      let stem = stems.get(word);
      if (stem === undefined) {
        if (stems.size >= MAX_STEMS) stems.clear();
        stem = stemOf(word);
        stems.set(word, stem);
      }
      return stem;
    },
    read(text: string): ReadText {
      const doc = nlp.readDoc(text);
      const tokens = doc.tokens();
      const values = strings(tokens.out());
      const normals = strings(tokens.out(its.normal));
      const lemmas = strings(tokens.out(its.lemma));
      const pos = strings(tokens.out(its.pos));
      const types = strings(tokens.out(its.type));
      const stops = booleans(tokens.out(its.stopWordFlag));
      const negations = booleans(tokens.out(its.negationFlag));
      const sentences = doc.sentences();
      const texts = strings(sentences.out());
      const ranges = spans(sentences.out(its.span));
      const sentiments = numbers(sentences.out(its.sentiment));
      return {
        tokens: values.map((value, i) => ({
          value,
          normal: normals[i] ?? value.toLowerCase(),
          lemma: (lemmas[i] ?? value).toLowerCase(),
          pos: pos[i] ?? 'X',
          type: types[i] ?? 'word',
          stop: stops[i] ?? false,
          negated: negations[i] ?? false,
        })),
        sentences: ranges.map(([start, end], i) => ({ text: texts[i] ?? '', start, end, sentiment: sentiments[i] ?? 0 })),
      };
    },
  };
}
