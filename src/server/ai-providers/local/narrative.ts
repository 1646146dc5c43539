import type { NarrativeOutput, Priority } from '../../../common/contract/ai.js';
import { authorKey, type CommentForAnalysis, type NarrativeSummaryInput, type SuggestionForAnalysis } from '../provider.js';
import type { NarrativeEvidence } from './evidence.js';
import type { Analyzer, Direction, TextAnalysis } from './analysis.js';
import { uniqueById } from './analysis.js';
import { addressingOf, withoutAddress, type Addressing } from './addressing.js';
import { sharedRun } from './runs.js';
import { crossingVotes, disagreementsByComponent, quantitiesIn, splitVote, type Quantity, type Voters } from './stance.js';
import { themesOf as clusterThemes } from './themes.js';
import { STANCE } from './rules.js';
import { addressesTheTool, capitalise, clamp, cleanText, compareText, listOf, lowerFirst, plural, round2, signed, truncate } from './text.js';

/**
 * The narrative over all suggestions: themes (the suggestions clustered by topic, across
 * components), the best-supported actions, and conflicts only where the votes or the proposals
 * really pull apart, each citing both sides. Support is counted in members before votes (one
 * member's many comments, voted up by themselves, are one member), and priorities spread by that
 * evidence: a lead reading ten actions all marked 'high' learns nothing from the marks.
 */

const MAX_THEMES = 12;
const MAX_ACTIONS = 10;
const MAX_CONFLICTS = 12;
/** The fewest members behind an action or theme marked high, and the share of them that may be. */
const HIGH_MIN_MEMBERS = 3;
const HIGH_SHARE = 1 / 3;
/** How near the best-backed an entry must come to be high as well. */
const HIGH_OF_BEST = 0.6;
/** What a severe consequence adds to the evidence, counted in members. */
const SEVERITY_WEIGHT = 2;

/** Words of harm a lead acts on first, whatever the votes: outages, lost or exposed data, security, safety. */
const SEVERE =
  /\b(?:outages?|downtime|data loss|(?:lose|lost|losing) (?:data|records|events)|corrupt\w*|security|breach(?:es|ed)?|vulnerab\w*|exploit\w*|leak(?:s|ed|ing)?|privacy|personal data|patient data|safety|unsafe)\b/i;

type Theme = NarrativeOutput['keyThemes'][number];
type Conflict = NarrativeOutput['conflicts'][number];

interface Item {
  suggestion: SuggestionForAnalysis;
  text: string;
  /** Its words without the component-title prefix, as the themes read it. */
  topicText: string;
  analysis: TextAnalysis;
  titles: string[];
  phrases: string[];
  directions: Map<string, Direction>;
  net: number;
  voters: Voters;
  /** The value it proposes, if it names one: its text's last quantity. */
  value: Quantity | undefined;
  backing: Backing;
  severe: boolean;
}

/**
 * Who stands behind a suggestion, by member: its authors and those who vote its comments up (an
 * author's vote on their own comment adds nobody), and those who vote them down. Members are keyed
 * by id where known ('id:3'), else by name or initials; votes whose voters are unknown are counted
 * apart, one member each.
 */
interface Backing {
  supporters: Set<string>;
  opposers: Set<string>;
  anonymousUp: number;
  anonymousDown: number;
  authors: Set<string>;
  /** The authors' names, when the comments are known. */
  names: string[];
}

interface DraftTheme {
  label: string;
  kind: 'phrase' | 'single';
  items: Item[];
}

const PRIORITY_RANK: Record<Priority, number> = { high: 0, medium: 1, low: 2 };

export function narrativeSummary(analyzer: Analyzer, input: NarrativeSummaryInput): NarrativeOutput {
  const suggestions = uniqueById(input.suggestions);
  if (suggestions.length === 0) {
    return {
      confidence: 0,
      overallConsensus:
        (input.settledCount ?? 0) > 0
          ? 'Every suggestion has been decided (accepted, in progress, done or declined, or a basis of a decision), so no open suggestion remains to summarise.'
          : 'There are no suggestions yet, so there is nothing to summarise. Generate suggestions from the comments first.',
      keyThemes: [],
      actionItems: [],
      conflicts: [],
    };
  }

  const items = itemsOf(analyzer, suggestions, input.sourceComments);

  const themes = themesOf(analyzer, items);
  const themeOf = new Map<number, string>();
  for (const theme of themes) for (const item of theme.items) if (!themeOf.has(item.suggestion.id)) themeOf.set(item.suggestion.id, theme.label);

  const themeEvidence = themes.map((theme) => {
    const backing = joined(theme.items.map((item) => item.backing));
    const net = theme.items.reduce((sum, item) => sum + item.net, 0);
    return { theme, members: membersIn(backing), authors: backing.authors.size, severe: theme.items.some((item) => item.severe), net };
  });
  const themePriority = prioritiesBy(themeEvidence);
  const keyThemes: Theme[] = themeEvidence
    .map((entry) => ({ entry, theme: describeTheme(entry.theme, themePriority(entry)) }))
    .sort(
      (a, b) =>
        PRIORITY_RANK[a.theme.priority] - PRIORITY_RANK[b.theme.priority] ||
        weightOf(b.entry) - weightOf(a.entry) ||
        b.theme.netVotes - a.theme.netVotes ||
        b.theme.sources.length - a.theme.sources.length ||
        compareText(a.theme.theme, b.theme.theme),
    )
    .map(({ theme }) => theme);

  const actionEvidence = items
    .filter((item) => item.net >= 0 && item.text !== '')
    .map((item) => ({ item, members: membersIn(item.backing), authors: item.backing.authors.size, severe: item.severe, net: item.net }))
    .sort(
      (a, b) =>
        weightOf(b) - weightOf(a) ||
        Number(b.net > 0) - Number(a.net > 0) ||
        b.net - a.net ||
        b.item.suggestion.upVotes - a.item.suggestion.upVotes ||
        b.item.suggestion.sourceCount - a.item.suggestion.sourceCount ||
        a.item.suggestion.id - b.item.suggestion.id,
    )
    .slice(0, MAX_ACTIONS);
  const actionPriority = prioritiesBy(actionEvidence);
  const actionItems = actionEvidence.map((entry) => ({
    action: entry.item.text,
    priority: actionPriority(entry),
    reasoning: reasoningOf(entry.item),
    sources: [entry.item.suggestion.id],
  }));

  const contested = conflictsOf(analyzer, items, themes, themeOf, input.sourceComments);
  const conflicts = contested.map((entry) => entry.conflict);

  // Overall consensus.
  const up = items.reduce((sum, item) => sum + item.suggestion.upVotes, 0);
  const down = items.reduce((sum, item) => sum + item.suggestion.downVotes, 0);
  const sentences = [`The team has ${plural(items.length, 'suggestion')}, with ${plural(up, 'up-vote')} and ${plural(down, 'down-vote')} in total.`];
  // Agreement is read from votes only: a theme ranked high for the members and severity behind it
  // has not been agreed by anyone until the team votes for it.
  const agreed = keyThemes.filter((theme) => theme.netVotes >= 2).slice(0, 3);
  const strongest = keyThemes.filter((theme) => theme.netVotes > 0).sort((a, b) => b.netVotes - a.netVotes || compareText(a.theme, b.theme))[0];
  if (agreed.length > 0) sentences.push(`There is broad agreement on ${listOf(agreed.map((theme) => lowerFirst(theme.theme)))}.`);
  else if (strongest !== undefined) sentences.push(`Support is modest so far; the strongest is for ${lowerFirst(strongest.theme)}.`);
  else sentences.push('No theme has clear support yet.');
  sentences.push(conflicts.length > 0 ? `The team is split on ${listOf([...new Set(contested.slice(0, 3).map((entry) => lowerFirst(entry.subject)))])}.` : 'No topic is contested.');
  const rejected = items.filter((item) => item.net <= -2).length;
  const unvoted = items.filter((item) => item.suggestion.upVotes + item.suggestion.downVotes === 0).length;
  if (rejected > 0) sentences.push(`${plural(rejected, 'suggestion')} ${rejected === 1 ? 'is' : 'are'} clearly voted down.`);
  else if (unvoted > 0) sentences.push(`${plural(unvoted, 'suggestion')} ${unvoted === 1 ? 'has' : 'have'} no votes yet.`);

  // Confidence: how many suggestions, how many votes, how clear the votes are, fewer conflicts.
  const votes = up + down;
  const agreement = votes === 0 ? 0.3 : items.reduce((sum, item) => sum + Math.abs(item.net), 0) / votes;
  let confidence =
    0.1 + 0.3 * Math.min(1, items.length / 15) + 0.25 * Math.min(1, votes / (2 * items.length + 6)) + 0.3 * agreement - 0.05 * Math.min(conflicts.length, 4);
  if (items.length <= 2) confidence = Math.min(confidence, 0.4);

  return {
    confidence: round2(clamp(confidence, 0.05, 0.95)),
    overallConsensus: truncate(sentences.join(' '), 2_000),
    keyThemes,
    actionItems,
    conflicts,
  };
}

/**
 * Each suggestion read: its words without the title prefix (the narrative names the component beside
 * it) or a greeting or teammate it opens with, key phrases, directions, votes, voters and backing.
 */
function itemsOf(analyzer: Analyzer, suggestions: readonly SuggestionForAnalysis[], sourceComments?: readonly CommentForAnalysis[]): Item[] {
  const commentById = new Map((sourceComments ?? []).map((comment) => [comment.id, comment]));
  const addressing = addressingOf((sourceComments ?? []).map((comment) => comment.memberName));
  return suggestions.map((suggestion) => {
    const titles = [...new Set(suggestion.componentTitles.map((title) => truncate(cleanText(title).replace(/[.:]+$/, ''), 80)).filter((title) => title !== ''))];
    const titleWords = new Set(suggestion.componentTitles.flatMap((title) => [...analyzer.titleWords(title)]));
    const topicText = readable(suggestion.suggestion, suggestion.componentTitles, addressing);
    const analysis = analyzer.analyse(topicText, titleWords);
    const directions = new Map<string, Direction>();
    for (const sentence of analysis.sentences) {
      for (const [phrase, direction] of sentence.directions) if (!directions.has(phrase)) directions.set(phrase, direction);
    }
    // What it says about the architecture: a sentence addressed to the AI is not quoted.
    const text = truncate(analysis.injections === 0 ? cleanText(topicText) : analysis.sentences.map((sentence) => sentence.text).join(' '), 600);
    return {
      suggestion,
      text,
      topicText,
      analysis,
      titles,
      phrases: analysis.phrases,
      directions,
      net: suggestion.upVotes - suggestion.downVotes,
      voters: { up: new Set(suggestion.upVoterIds ?? []), down: new Set(suggestion.downVoterIds ?? []) },
      value: quantitiesIn(text).at(-1),
      backing: backingOf(suggestion, commentById),
      severe: SEVERE.test(text),
    };
  });
}

/** Its words as a lead reads them: no component title in front, no greeting or teammate called. */
function readable(text: string, titles: readonly string[], addressing: Addressing): string {
  const bare = withoutTitlePrefix(text, titles).trim();
  return capitalise(withoutAddress(bare, addressing));
}

function backingOf(suggestion: SuggestionForAnalysis, commentById: ReadonlyMap<number, CommentForAnalysis>): Backing {
  const backing: Backing = { supporters: new Set(), opposers: new Set(), anonymousUp: 0, anonymousDown: 0, authors: new Set(), names: [] };
  const ids = suggestion.sourceIds ?? [];
  const comments = ids.flatMap((id) => commentById.get(id) ?? []);
  if (ids.length > 0 && comments.length === ids.length) {
    for (const comment of comments) {
      const author = authorKey(comment);
      backing.supporters.add(author);
      backing.authors.add(author);
      if (!backing.names.includes(comment.memberName.trim())) backing.names.push(comment.memberName.trim());
      if (comment.upVoterIds === undefined) backing.anonymousUp += comment.upVotes;
      else for (const voter of comment.upVoterIds) backing.supporters.add(`id:${voter}`);
      if (comment.downVoterIds === undefined) backing.anonymousDown += comment.downVotes;
      else for (const voter of comment.downVoterIds) backing.opposers.add(`id:${voter}`);
    }
    // Votes on the suggestion itself, beyond those on its comments, come without voter ids.
    backing.anonymousUp += Math.max(0, suggestion.upVotes - comments.reduce((sum, comment) => sum + comment.upVotes, 0));
    backing.anonymousDown += Math.max(0, suggestion.downVotes - comments.reduce((sum, comment) => sum + comment.downVotes, 0));
    return backing;
  }
  // Without its comments: the authors by initials, the voters by id where given.
  for (const initials of suggestion.memberInitials) if (initials.trim() !== '') backing.authors.add(`initials:${initials.trim()}`);
  for (const author of backing.authors) backing.supporters.add(author);
  if (suggestion.upVoterIds === undefined) backing.anonymousUp = suggestion.upVotes;
  else for (const voter of suggestion.upVoterIds) backing.supporters.add(`id:${voter}`);
  if (suggestion.downVoterIds === undefined) backing.anonymousDown = suggestion.downVotes;
  else for (const voter of suggestion.downVoterIds) backing.opposers.add(`id:${voter}`);
  return backing;
}

/** The backing of several suggestions together: a member behind two of them counts once. */
function joined(backings: readonly Backing[]): Backing {
  return {
    supporters: new Set(backings.flatMap((backing) => [...backing.supporters])),
    opposers: new Set(backings.flatMap((backing) => [...backing.opposers])),
    anonymousUp: backings.reduce((sum, backing) => sum + backing.anonymousUp, 0),
    anonymousDown: backings.reduce((sum, backing) => sum + backing.anonymousDown, 0),
    authors: new Set(backings.flatMap((backing) => [...backing.authors])),
    names: [...new Set(backings.flatMap((backing) => backing.names))],
  };
}

/** Members behind it less members against it (a member who backs one comment and opposes another is behind it). */
function membersIn(backing: Backing): number {
  const against = [...backing.opposers].filter((member) => !backing.supporters.has(member)).length;
  return backing.supporters.size + backing.anonymousUp - against - backing.anonymousDown;
}

interface Evidence {
  members: number;
  authors: number;
  severe: boolean;
  net: number;
}

/**
 * The evidence for acting on something, counted in members: those behind it, half a member more
 * for each further member who raised it on their own, SEVERITY_WEIGHT for a severe consequence,
 * and its net votes to tell apart what members alone would tie.
 */
const weightOf = (entry: Evidence): number => entry.members + 0.5 * Math.max(0, entry.authors - 1) + (entry.severe ? SEVERITY_WEIGHT : 0) + 0.05 * entry.net;

/**
 * Priorities spread by evidence among the entries ranked together: high for the best-backed third
 * that comes near the best (with at least HIGH_MIN_MEMBERS members' worth of evidence), low for what one member alone stands
 * behind without a severe consequence or what the votes reject, medium between. More evidence
 * never gives a lower priority.
 */
function prioritiesBy(entries: readonly Evidence[]): (entry: Evidence) => Priority {
  const weights = entries.map(weightOf).sort((a, b) => b - a);
  // The best-backed third, and only what comes near the best: one point far ahead of the rest stands alone.
  const bar = Math.max(HIGH_MIN_MEMBERS, weights[Math.max(0, Math.ceil(weights.length * HIGH_SHARE) - 1)] ?? HIGH_MIN_MEMBERS, HIGH_OF_BEST * (weights[0] ?? 0));
  return (entry) => {
    if (entry.net < 0 || entry.members + (entry.severe ? SEVERITY_WEIGHT : 0) <= 1) return 'low';
    return weightOf(entry) >= bar ? 'high' : 'medium';
  };
}

/**
 * Themes across components, by topic: the suggestions clustered by what they say (themes.ts, the
 * same clustering as a component's comments), named in their words; then the rest one by one.
 */
function themesOf(analyzer: Analyzer, items: readonly Item[]): DraftTheme[] {
  const titleWords = new Set(items.flatMap((item) => item.suggestion.componentTitles.flatMap((title) => [...analyzer.titleWords(title)])));
  const clusters = clusterThemes(
    analyzer,
    items.map((item) => ({ content: item.topicText, upVotes: item.suggestion.upVotes, downVotes: item.suggestion.downVotes, memberName: '' })),
    items.map((item) => item.analysis),
    titleWords,
    { maxThemes: MAX_THEMES, minSize: 2 },
  );
  const themes: DraftTheme[] = clusters.map((cluster) => ({
    label: truncate(cluster.label, 200),
    kind: 'phrase',
    items: cluster.members.flatMap((i) => {
      const item = items[i];
      return item === undefined ? [] : [item];
    }),
  }));
  const covered = new Set(themes.flatMap((theme) => theme.items.map((item) => item.suggestion.id)));
  const labels = new Set(themes.map((theme) => theme.label.toLowerCase()));

  const singles = items
    .filter((item) => !covered.has(item.suggestion.id) && item.text !== '')
    .sort((a, b) => membersIn(b.backing) - membersIn(a.backing) || b.net - a.net || a.suggestion.id - b.suggestion.id);
  for (const item of singles) {
    if (themes.length >= MAX_THEMES) break;
    const phrase = [...item.phrases].sort((a, b) => Number(item.directions.has(b)) - Number(item.directions.has(a)) || b.split(' ').length - a.split(' ').length)[0];
    let label = phrase !== undefined ? analyzer.label(phrase) : (item.titles[0] ?? truncate(item.text, 80));
    if (labels.has(label.toLowerCase())) label = truncate(item.text, 120);
    labels.add(label.toLowerCase());
    themes.push({ label: truncate(label, 200), kind: 'single', items: [item] });
  }
  return themes;
}

function describeTheme(theme: DraftTheme, priority: Priority): Theme {
  const items = theme.items;
  const up = items.reduce((sum, item) => sum + item.suggestion.upVotes, 0);
  const down = items.reduce((sum, item) => sum + item.suggestion.downVotes, 0);
  const netVotes = up - down;
  const titles = [...new Set(items.flatMap((item) => item.titles))].sort(compareText);
  const where = titles.length === 0 ? 'the architecture' : titles.length > 3 ? plural(titles.length, 'component') : listOf(titles);
  const votes = `${plural(up, 'up-vote')} and ${plural(down, 'down-vote')} (net ${signed(netVotes)})`;
  const best = items.filter((item) => item.text !== '').sort((a, b) => b.net - a.net || a.suggestion.id - b.suggestion.id)[0];
  const first =
    theme.kind === 'phrase'
      ? `${plural(items.length, 'suggestion')} on ${where} concern ${lowerFirst(theme.label)}, with ${votes}.`
      : `One suggestion on ${where}, with ${votes}.`;
  const second = best === undefined ? '' : ` ${items.length > 1 ? 'Best supported' : 'It reads'}: ${truncate(best.text, 240)}`;
  return {
    theme: theme.label,
    description: truncate(first + second, 1_000),
    priority,
    netVotes,
    sources: items.map((item) => item.suggestion.id).sort((a, b) => a - b),
  };
}

/**
 * Who is behind an action, in distinct people: the members who wrote its comments and, when the
 * voters are known, the distinct members who voted them up (one member is counted once however
 * many of its comments they voted).
 */
function reasoningOf(item: Item): string {
  const members = new Set(item.suggestion.memberInitials.map((initials) => initials.trim()).filter((initials) => initials !== '')).size;
  const votes = `+${item.suggestion.upVotes} / −${item.suggestion.downVotes}`;
  const from = `from ${plural(item.suggestion.sourceCount, 'comment')} on ${item.titles.length === 0 ? 'the architecture' : listOf(item.titles)}`;
  // Who raised it, by name, where its comments are known.
  const { names } = item.backing;
  if (names.length > 0) {
    const raisedBy = names.length <= 3 ? listOf(names) : `${names.slice(0, 2).join(', ')} and ${plural(names.length - 2, 'other')}`;
    const voted = item.suggestion.upVoterIds === undefined ? '' : ` and voted up by ${plural(item.voters.up.size, 'member')}`;
    return truncate(`Raised by ${raisedBy}${voted} (${votes}), ${from}.`, 1_000);
  }
  if (item.suggestion.upVoterIds !== undefined && members > 0) {
    return truncate(`Written by ${plural(members, 'member')} and voted up by ${plural(item.voters.up.size, 'member')} (${votes}), ${from}.`, 1_000);
  }
  return truncate(members > 0 ? `Backed by ${plural(members, 'member')} (${votes}), ${from}.` : `Votes ${votes}, ${from}.`, 1_000);
}


function conflictsOf(
  analyzer: Analyzer,
  items: readonly Item[],
  themes: readonly DraftTheme[],
  themeOf: ReadonlyMap<number, string>,
  sourceComments: readonly CommentForAnalysis[] | undefined,
): Array<{ conflict: Conflict; subject: string }> {
  const conflicts: Array<Conflict & { weight: number; subject: string }> = [];
  const flagged = new Set<number>();
  const opposed: Array<Set<number>> = [];

  // Where the comments are known, the disagreements are read from them as a component's summary
  // reads them, each side the suggestions that follow from its comments; the suggestions' own words
  // and merged votes are a weaker reading, left for when the comments are not known.
  const fromComments = sourceComments === undefined ? undefined : commentConflicts(analyzer, items, sourceComments);
  for (const { sides: _sides, ...conflict } of fromComments ?? []) {
    for (const id of conflict.sources) flagged.add(id);
    opposed.push(new Set(conflict.sources));
    conflicts.push(conflict);
  }

  // Two suggestions on one component that stand against each other, both cited.
  for (const pair of fromComments === undefined ? opposingPairs(items) : []) {
    const conflict = describePair(analyzer, pair, items);
    for (const id of conflict.sources) flagged.add(id);
    opposed.push(new Set(conflict.sources));
    conflicts.push(conflict);
  }

  // One suggestion with strong support and strong opposition.
  for (const item of items) {
    const { upVotes: up, downVotes: down } = item.suggestion;
    if (!splitVote(up, down) || item.text === '' || flagged.has(item.suggestion.id)) continue;
    flagged.add(item.suggestion.id);
    const topic = themeOf.get(item.suggestion.id) ?? (item.phrases[0] !== undefined ? analyzer.label(item.phrases[0]) : truncate(item.text, 100));
    conflicts.push({
      subject: topic,
      topic: truncate(topic, 200),
      description: truncate(`${plural(up, 'member')} voted for and ${plural(down, 'member')} against: ${truncate(item.text, 300)}`, 1_000),
      suggestedResolution: truncate(
        `Discuss it in the next review with the authors of its ${plural(item.suggestion.sourceCount, 'source comment')} and the members who voted against; agree a trial period or a narrower version, then vote again.`,
        1_000,
      ),
      sources: [item.suggestion.id],
      weight: up + down,
    });
  }

  // Two proposals on the same thing that pull opposite ways (add/keep/increase vs remove/drop/reduce).
  const byPhrase = new Map<string, { up: Item[]; down: Item[] }>();
  for (const item of items) {
    for (const [phrase, direction] of item.directions) {
      const sides = byPhrase.get(phrase) ?? { up: [], down: [] };
      sides[direction].push(item);
      byPhrase.set(phrase, sides);
    }
  }
  const phrases = [...byPhrase.keys()].sort((a, b) => b.split(' ').length - a.split(' ').length || compareText(a, b));
  for (const phrase of phrases) {
    const sides = byPhrase.get(phrase);
    if (sides === undefined || sides.up.length === 0 || sides.down.length === 0) continue;
    const meets = (a: Item, b: Item): boolean => a.titles.length === 0 || b.titles.length === 0 || a.titles.some((title) => b.titles.includes(title));
    const ups = sides.up.filter((a) => sides.down.some((b) => meets(a, b)));
    const downs = sides.down.filter((b) => sides.up.some((a) => meets(a, b)));
    if (ups.length === 0 || downs.length === 0) continue;
    // A side the team has clearly voted down is settled, not a conflict.
    if (Math.max(...ups.map((item) => item.net)) <= -2 || Math.max(...downs.map((item) => item.net)) <= -2) continue;
    const ids = new Set([...ups, ...downs].map((item) => item.suggestion.id));
    if (opposed.some((seen) => [...ids].every((id) => seen.has(id)))) continue;
    opposed.push(ids);
    const best = (list: readonly Item[]): Item | undefined => [...list].sort((a, b) => b.net - a.net || a.suggestion.id - b.suggestion.id)[0];
    const forIt = best(ups);
    const against = best(downs);
    if (forIt === undefined || against === undefined) continue;
    const label = analyzer.label(phrase);
    const leader = forIt.net >= against.net ? forIt : against;
    conflicts.push({
      subject: label,
      topic: truncate(`${label}: opposing proposals`, 200),
      description: truncate(
        `Two proposals pull ${lowerFirst(label)} in opposite directions. For: ${bare(forIt.text, 220)} (${votesOf(forIt)}). Against: ${bare(against.text, 220)} (${votesOf(against)}).`,
        1_000,
      ),
      suggestedResolution: truncate(
        `Bring both proposals on ${lowerFirst(label)} to the next review with their authors and agree one direction, for example by trialling the better-supported one (${leader === forIt ? 'for' : 'against'}, ${votesOf(leader)}) for a fixed period and measuring the effect.`,
        1_000,
      ),
      sources: [...ids].sort((a, b) => a - b),
      weight: [...ups, ...downs].reduce((sum, item) => sum + item.suggestion.upVotes + item.suggestion.downVotes, 0),
    });
  }

  // A theme whose suggestions are voted up and down (each side clearly), when no single one explains it.
  for (const theme of themes) {
    if (theme.items.length < 2 || theme.items.some((item) => flagged.has(item.suggestion.id))) continue;
    const up = theme.items.reduce((sum, item) => sum + item.suggestion.upVotes, 0);
    const down = theme.items.reduce((sum, item) => sum + item.suggestion.downVotes, 0);
    if (!splitVote(up, down)) continue;
    const supported = theme.items.filter((item) => item.net >= 1);
    const opposedItems = theme.items.filter((item) => item.net <= -1);
    if (supported.length === 0 || opposedItems.length === 0) continue;
    const ids = new Set([...supported, ...opposedItems].map((item) => item.suggestion.id));
    if (opposed.some((seen) => [...ids].every((id) => seen.has(id)))) continue;
    conflicts.push({
      subject: theme.label,
      topic: truncate(theme.label, 200),
      description: truncate(
        `Within ${lowerFirst(theme.label)}, ${plural(supported.length, 'suggestion')} ${supported.length === 1 ? 'is' : 'are'} voted up and ${plural(opposedItems.length, 'suggestion')} ${opposedItems.length === 1 ? 'is' : 'are'} voted down (${up} up, ${down} down in all).`,
        1_000,
      ),
      suggestedResolution: truncate(
        `Discuss the ${lowerFirst(theme.label)} suggestions together in the next review: keep the supported ones, ask the authors of the voted-down ones which problem they address, and agree one approach.`,
        1_000,
      ),
      sources: [...ids].sort((a, b) => a - b),
      weight: up + down,
    });
  }

  return conflicts
    .sort((a, b) => b.weight - a.weight || compareText(a.topic, b.topic) || (a.sources[0] ?? 0) - (b.sources[0] ?? 0))
    .slice(0, MAX_CONFLICTS)
    .map(({ weight: _weight, subject, ...conflict }) => ({ conflict, subject }));
}

/** The suggestions on each side of a disagreement, and those offering a middle way. */
interface SuggestionSides {
  sideA: number[];
  sideB: number[];
  middleWay: number[];
  resolved: boolean;
}

/**
 * What the narrative is built on, for a model to write from (the openai provider): the themes the
 * suggestions cluster into and the disagreements among their comments, by suggestion id.
 */
export function narrativeEvidence(analyzer: Analyzer, input: NarrativeSummaryInput): NarrativeEvidence {
  const items = itemsOf(analyzer, uniqueById(input.suggestions), input.sourceComments);
  return {
    themes: themesOf(analyzer, items).map((theme) => ({ label: theme.label, ids: theme.items.map((item) => item.suggestion.id) })),
    disagreements:
      input.sourceComments === undefined
        ? []
        : commentConflicts(analyzer, items, input.sourceComments).map((conflict) => ({ question: conflict.subject, ...conflict.sides })),
  };
}

/**
 * The disagreements among the suggestions' source comments (stance.ts), each side the suggestions
 * that follow from its comments; a suggestion with comments on both sides is on neither.
 */
function commentConflicts(analyzer: Analyzer, items: readonly Item[], sourceComments: readonly CommentForAnalysis[]): Array<Conflict & { weight: number; subject: string; sides: SuggestionSides }> {
  const comments = uniqueById(sourceComments).filter((comment) => !addressesTheTool(comment.content, analyzer.words));
  const analyses = comments.map((comment) => analyzer.analyse(comment.content, analyzer.titleWords(comment.componentTitle)));
  const { disagreements } = disagreementsByComponent(analyzer, comments, analyses);
  const itemsOf = (indexes: readonly number[]): Item[] => {
    const ids = new Set(indexes.map((i) => comments[i]?.id));
    return items.filter((item) => item.text !== '' && (item.suggestion.sourceIds ?? []).some((id) => ids.has(id)));
  };
  return disagreements.flatMap((disagreement) => {
    const a = itemsOf(disagreement.sideA);
    const b = itemsOf(disagreement.sideB);
    const sideA = a.filter((item) => !b.includes(item));
    const sideB = b.filter((item) => !a.includes(item));
    const [leadA] = sideA;
    const [leadB] = sideB;
    if (leadA === undefined || leadB === undefined) return [];
    const middle = itemsOf(disagreement.compromise).find((item) => !sideA.includes(item) && !sideB.includes(item));
    const where = comments[disagreement.sideA[0] ?? -1]?.componentTitle.trim() || 'the architecture';
    const [positionA, positionB] = disagreement.positions;
    const subject = disagreement.topic;
    const more = (side: readonly Item[]) => (side.length <= 1 ? '' : `, with ${plural(side.length - 1, 'more suggestion')} on that side`);
    const sides = [...sideA, ...sideB];
    // Each side stated once: its value with its words when the two differ in a value, else its words.
    const valued = !positionA.startsWith('“') && !positionB.startsWith('“');
    const description = valued
      ? `The team is divided on ${subject} (${where}): one side argues for ${positionA} (“${bare(leadA.text, 200)}”, ${votesOf(leadA)}${more(sideA)}), the other for ${positionB} (“${bare(leadB.text, 200)}”, ${votesOf(leadB)}${more(sideB)}).`
      : `The team is divided on ${subject} (${where}). One side: “${bare(leadA.text, 200)}” (${votesOf(leadA)}${more(sideA)}). The other: “${bare(leadB.text, 200)}” (${votesOf(leadB)}${more(sideB)}).`;
    const resolution =
      middle !== undefined
        ? `${disagreement.resolved ? 'A middle way has support from both sides' : 'A middle way is on the table'}: “${bare(middle.text, 300)}” (${votesOf(middle)}). ${disagreement.resolved ? 'Confirm it in the next review and close the question.' : 'Discuss it with both sides and vote on it.'}`
        : `Bring both sides together in the next review to settle ${subject}: agree what evidence would decide it (an incident to replay, a trial period with a measure), try it, and vote again.`;
    return [
      {
        subject,
        topic: truncate(`${capitalise(subject)} (${where})`, 200),
        description: truncate(description, 1_000),
        suggestedResolution: truncate(resolution, 1_000),
        sources: [...sides, ...(middle === undefined ? [] : [middle])].map((item) => item.suggestion.id).sort((x, y) => x - y),
        weight: sides.reduce((sum, item) => sum + item.suggestion.upVotes + item.suggestion.downVotes, 0) + 100,
        sides: {
          sideA: sideA.map((item) => item.suggestion.id),
          sideB: sideB.map((item) => item.suggestion.id),
          middleWay: middle === undefined ? [] : [middle.suggestion.id],
          resolved: disagreement.resolved,
        },
      },
    ];
  });
}

interface OpposingPair {
  a: Item;
  b: Item;
  /** Opposite values of one measure, when that is how they differ. */
  values: [Quantity, Quantity] | undefined;
  weight: number;
  /** Further suggestions on a's side and on b's: each stands against one on the other side. */
  withA: Item[];
  withB: Item[];
}

const sameComponent = (a: Item, b: Item): boolean => a.titles.length > 0 && a.titles.some((title) => b.titles.includes(title));

/**
 * Pairs of suggestions on one component that stand against each other: the same members vote their
 * comments opposite ways (both ways round), or they propose different values of one measure about
 * the same thing. The most opposed pairs come first, each suggestion in one at most; a suggestion
 * that stands against one side of a chosen pair then joins the other side.
 */
function opposingPairs(items: readonly Item[]): OpposingPair[] {
  const candidates: OpposingPair[] = [];
  for (const [i, a] of items.entries()) {
    for (const b of items.slice(i + 1)) {
      if (!sameComponent(a, b) || a.text === '' || b.text === '') continue;
      const related = sharesSubject(a, b);
      // As for comments (stance.ts): votes alone set two suggestions about different things against
      // each other only when several members cross; crossing both ways scores at least 2.
      const crossing = related || crossingVotes(a.voters, b.voters) >= 3 ? crossingVotes(a.voters, b.voters) : 0;
      const values =
        related && a.value !== undefined && b.value !== undefined && a.value.dimension === b.value.dimension && a.value.value !== b.value.value
          ? ([a.value, b.value] as [Quantity, Quantity])
          : undefined;
      if (crossing < 2 && values === undefined) continue;
      candidates.push({ a, b, values, weight: crossing + (values === undefined ? 0 : 2), withA: [], withB: [] });
    }
  }
  candidates.sort((x, y) => y.weight - x.weight || x.a.suggestion.id - y.a.suggestion.id || x.b.suggestion.id - y.b.suggestion.id);
  const used = new Set<number>();
  const chosen = candidates.filter((pair) => {
    if (used.has(pair.a.suggestion.id) || used.has(pair.b.suggestion.id)) return false;
    used.add(pair.a.suggestion.id);
    used.add(pair.b.suggestion.id);
    return true;
  });
  // Which side of which chosen pair each suggestion is on.
  const side = new Map<number, { pair: OpposingPair; onA: boolean }>();
  for (const pair of chosen) {
    side.set(pair.a.suggestion.id, { pair, onA: true });
    side.set(pair.b.suggestion.id, { pair, onA: false });
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const { a, b } of candidates) {
      const [placed, other] = side.has(a.suggestion.id) ? [side.get(a.suggestion.id), b] : [side.get(b.suggestion.id), a];
      if (placed === undefined || side.has(other.suggestion.id)) continue;
      (placed.onA ? placed.pair.withB : placed.pair.withA).push(other);
      side.set(other.suggestion.id, { pair: placed.pair, onA: !placed.onA });
      grew = true;
    }
  }
  return chosen;
}

/** A key phrase in common, or a run of words both write. */
function sharesSubject(a: Item, b: Item): boolean {
  return a.phrases.some((phrase) => b.phrases.includes(phrase)) || sharedRun([a.text], [b.text], new Set()) !== undefined;
}

/** What a middle way between two values or two positions looks like in words. */
const MIDDLE_WAY = STANCE.middleWay.pattern;

/** The conflict of a pair: the contested question, both positions, and a middle way when a suggestion offers one. */
function describePair(analyzer: Analyzer, pair: OpposingPair, items: readonly Item[]): Conflict & { weight: number; subject: string } {
  const { a, b, values, withA, withB } = pair;
  const sides = [a, b, ...withA, ...withB];
  const sharedPhrase = a.phrases.find((phrase) => b.phrases.includes(phrase));
  const question =
    sharedRun([withoutTitlePrefix(a.text, a.titles)], [withoutTitlePrefix(b.text, b.titles)], new Set()) ??
    (sharedPhrase === undefined ? undefined : analyzer.label(sharedPhrase)) ??
    a.titles[0] ??
    'the approach';
  const subject = lowerFirst(question);
  const middle = items.find(
    (item) =>
      !sides.includes(item) &&
      sameComponent(item, a) &&
      (MIDDLE_WAY.test(item.text) ||
        (values !== undefined && item.value !== undefined && item.value.dimension === values[0].dimension && Math.min(values[0].value, values[1].value) < item.value.value && item.value.value < Math.max(values[0].value, values[1].value))) &&
      (sharesSubject(item, a) || sharesSubject(item, b)),
  );
  const where = a.titles[0] ?? 'the architecture';
  const topic = values === undefined ? `${capitalise(subject)} on ${where}` : `${capitalise(subject)}: ${values[0].text} or ${values[1].text}?`;
  const more = (others: readonly Item[]) => (others.length === 0 ? '' : `, with ${plural(others.length, 'more suggestion')} on that side`);
  return {
    subject,
    topic: truncate(topic, 200),
    description: truncate(
      `The team is divided on ${subject} (${where}). One side: “${bare(a.text, 220)}” (${votesOf(a)}${more(withA)}). The other: “${bare(b.text, 220)}” (${votesOf(b)}${more(withB)}).${crossingVotes(a.voters, b.voters) >= 2 ? ' Members who back one vote the other down.' : ''}`,
      1_000,
    ),
    suggestedResolution: truncate(
      middle === undefined
        ? `Bring both sides together in the next review to settle ${subject}: agree what evidence would decide it (an incident to replay, a trial period with a measure), try it, and vote again.`
        : `A middle way is on the table: “${bare(middle.text, 300)}” (${votesOf(middle)}). Discuss it with both sides and vote on it.`,
      1_000,
    ),
    sources: [...sides, ...(middle === undefined ? [] : [middle])].map((item) => item.suggestion.id).sort((x, y) => x - y),
    weight: sides.reduce((sum, item) => sum + item.suggestion.upVotes + item.suggestion.downVotes, 0),
  };
}

/** 'Agentic Triage: Increase X' is read as 'Increase X' (the title is known from the suggestion's components). */
function withoutTitlePrefix(text: string, titles: readonly string[]): string {
  const trimmed = text.trimStart();
  for (const title of titles) {
    const prefix = title.trim();
    if (prefix !== '' && trimmed.toLowerCase().startsWith(`${prefix.toLowerCase()}:`)) return trimmed.slice(prefix.length + 1);
  }
  return text;
}

/** Without its end mark, to be quoted inside a sentence. */
function bare(text: string, max: number): string {
  return truncate(text, max).replace(/[.!?]+$/, '');
}

function votesOf(item: Item): string {
  return `+${item.suggestion.upVotes} / −${item.suggestion.downVotes}`;
}
