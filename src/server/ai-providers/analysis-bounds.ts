import type { AnalysisSample } from '../../common/contract/ai.js';
import { authorKey, type CommentForAnalysis } from './provider.js';

/**
 * How much of the review one AI call reads, whatever the team has posted. Posting stays within its
 * own limits (30 comments a minute, 5,000 characters each), but those add up: 600 comments of
 * 4,500 characters on one component made every analysis run its worker out of heap (96 MiB) or
 * past its time budget, so no member could have a summary or suggestions. The bounds below keep the
 * worst input of any call to what the worker reads in a few seconds within its heap, for both
 * providers (a model's prompt is built from the same input). The labelled evaluation sets are far
 * under them (at most 18 comments per component, 459 characters per comment), so results on
 * ordinary reviews are unchanged: a bound only ever drops or shortens input past it.
 */
export const ANALYSIS_BOUNDS = {
  /** Comments read per component: the most-voted and the most recent, half each, members in turn (ADR 0035). */
  commentsPerComponent: 300,
  /** Characters read of each comment (its beginning); a longer comment is cut at a word boundary. */
  charsPerComment: 2_000,
  /**
   * Characters read per call over every component (suggestions, the narrative's source comments):
   * one full component's worth (300 × 2,000), the size a summary is known to analyse within bounds.
   */
  charsPerCall: 600_000,
} as const;

export interface BoundedComments {
  /** What the provider reads: the input's order, long texts shortened. */
  comments: CommentForAnalysis[];
  /** Set when less than every comment, or less than every character, was read. */
  sample: AnalysisSample | undefined;
}

const votesOf = (comment: CommentForAnalysis) => comment.upVotes + comment.downVotes;
/** Newest first; equal times by id, so the order never depends on the input's. */
const byRecency = (a: CommentForAnalysis, b: CommentForAnalysis) => b.createdAt - a.createdAt || b.id - a.id;
const byVotes = (a: CommentForAnalysis, b: CommentForAnalysis) => votesOf(b) - votesOf(a) || byRecency(a, b);

/**
 * The comments in the order they are kept when not all can be: the most-voted and the most recent
 * taken in turn, so a burst of new comments can never push out what the team voted for, and many
 * votes on old comments never hide what was said last; and the members taking turns, each with
 * their comments in that order, so one member posting hundreds cannot push out a teammate's point,
 * voted or not.
 */
function byPriority(comments: readonly CommentForAnalysis[]): CommentForAnalysis[] {
  const voted = [...comments].sort(byVotes);
  const recent = [...comments].sort(byRecency);
  const taken = new Set<number>();
  // Each author's comments in priority order; authors in the order their first one comes.
  const byAuthor = new Map<string, CommentForAnalysis[]>();
  for (let i = 0; taken.size < comments.length && i < comments.length; i++) {
    for (const comment of [voted[i], recent[i]]) {
      if (comment === undefined || taken.has(comment.id)) continue;
      taken.add(comment.id);
      const author = authorKey(comment);
      const own = byAuthor.get(author);
      if (own === undefined) byAuthor.set(author, [comment]);
      else own.push(comment);
    }
  }
  const queues = [...byAuthor.values()];
  const order: CommentForAnalysis[] = [];
  for (let round = 0; order.length < taken.size; round++) {
    for (const own of queues) {
      const comment = own[round];
      if (comment !== undefined) order.push(comment);
    }
  }
  return order;
}

/** The beginning of a long text, cut at the last space before the bound when there is one near it. */
export function shortenedForAnalysis(text: string, max: number = ANALYSIS_BOUNDS.charsPerComment): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return space > max * 0.9 ? cut.slice(0, space) : cut;
}

/**
 * The comments an AI call reads: per component at most `commentsPerComponent`, by priority, then
 * over all of them at most `charsPerCall` characters, by the same priority; each text at most
 * `charsPerComment` characters. Input within the bounds comes back unchanged (the same objects, in
 * the same order), so the analysis of an ordinary review, and its cached output, do not change.
 */
export function boundedComments(comments: readonly CommentForAnalysis[], bounds: typeof ANALYSIS_BOUNDS = ANALYSIS_BOUNDS): BoundedComments {
  const byComponent = new Map<string, CommentForAnalysis[]>();
  for (const comment of comments) {
    const list = byComponent.get(comment.componentId) ?? [];
    list.push(comment);
    byComponent.set(comment.componentId, list);
  }
  const candidates = [...byComponent.values()].flatMap((list) => (list.length > bounds.commentsPerComponent ? byPriority(list).slice(0, bounds.commentsPerComponent) : list));

  const kept = new Set<number>();
  let chars = 0;
  for (const comment of byPriority(candidates)) {
    const length = Math.min(comment.content.length, bounds.charsPerComment);
    if (chars + length > bounds.charsPerCall) continue;
    chars += length;
    kept.add(comment.id);
  }

  let shortened = 0;
  const read = comments.flatMap((comment) => {
    if (!kept.has(comment.id)) return [];
    if (comment.content.length <= bounds.charsPerComment) return [comment];
    shortened += 1;
    return [{ ...comment, content: shortenedForAnalysis(comment.content, bounds.charsPerComment) }];
  });
  const sampled = read.length < comments.length || shortened > 0;
  return { comments: read, sample: sampled ? { read: read.length, of: comments.length, shortened } : undefined };
}
