import type { z } from 'zod';
import { architectureSchema, type Architecture } from '../../common/contract/architecture.js';
import { QA_TEST_COMPONENT_ID } from '../../common/api/architecture.js';
import { architecture as defaultArchitecture } from './architecture.js';

/** The component ordering list starts with 'Human-Initiated'. */
export const HUMAN_INITIATED_COMPONENT_ID = 'human-initiated';
/** The QA test component holds rank 17 of the component ordering list. */
export const QA_TEST_COMPONENT_RANK = 17;
const QA_TEST_COMPONENT_TITLE = 'QA Test Component';

const CONTENT_FILE = 'src/server/content/architecture.ts';

/**
 * Parses the architecture content and checks every cross-reference the schema cannot see.
 *
 * Runs once at start-up: a broken content file must stop the server with one message that lists
 * every problem, not fail the first reviewer who opens the page (or orphan comments silently).
 * The result is deeply frozen because the app shares it between all requests.
 */
export function loadArchitecture(content: unknown = defaultArchitecture): Architecture {
  const parsed = architectureSchema.safeParse(content);
  if (!parsed.success) throw invalidContent(parsed.error.issues.map(describeIssue));
  const problems = crossReferenceProblems(parsed.data);
  if (problems.length > 0) throw invalidContent(problems);
  return deepFreeze(parsed.data);
}

function invalidContent(problems: readonly string[]): Error {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return new Error(`Invalid architecture content (${CONTENT_FILE}), ${count}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
}

function describeIssue(issue: z.ZodError['issues'][number]): string {
  const path = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
  return `${path === '' ? '(root)' : path.slice(path.startsWith('.') ? 1 : 0)}: ${issue.message}`;
}

function duplicatesOf(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) duplicates.add(value);
    seen.add(value);
  }
  return [...duplicates];
}

/** Every rule the schema cannot express, each broken one as a sentence naming the id and where it is. */
function crossReferenceProblems(content: Architecture): string[] {
  const problems: string[] = [];
  const { groups, diagram, componentOrder } = content;

  // Ids are unique across groups, cards and diagram boxes: comments are keyed by the id alone.
  const owners = new Map<string, string[]>();
  const own = (id: string, owner: string) => owners.set(id, [...(owners.get(id) ?? []), owner]);
  for (const group of groups) {
    own(group.id, `group '${group.title}'`);
    for (const card of group.cards) own(card.id, `card '${card.title}'`);
  }
  for (const component of diagram.components) own(component.id, `diagram component '${component.title}'`);
  for (const [id, where] of owners) {
    if (where.length > 1) problems.push(`id '${id}' is used ${where.length} times: ${where.join(', ')}`);
  }
  const qaOwners = owners.get(QA_TEST_COMPONENT_ID);
  if (qaOwners !== undefined) {
    problems.push(`id '${QA_TEST_COMPONENT_ID}' is reserved for the hidden QA test component but is used by ${qaOwners.join(', ')}`);
  }

  const diagramIds = new Set(diagram.components.map((component) => component.id));
  const cardIds = new Set(groups.flatMap((group) => group.cards.map((card) => card.id)));

  const edgeKeys = new Set<string>();
  diagram.edges.forEach((edge, index) => {
    for (const end of ['from', 'to'] as const) {
      if (!diagramIds.has(edge[end])) problems.push(`diagram.edges[${index}].${end} '${edge[end]}' is not a diagram component`);
    }
    if (edge.from === edge.to) problems.push(`diagram.edges[${index}] connects '${edge.from}' to itself`);
    const key = `${edge.from}\u0000${edge.to}`;
    if (edgeKeys.has(key)) problems.push(`diagram.edges[${index}] '${edge.from}' → '${edge.to}' is listed more than once`);
    edgeKeys.add(key);
  });

  // The reveal shows one box per click: every box exactly once, nothing else.
  diagram.stepOrder.forEach((id, index) => {
    if (!diagramIds.has(id)) problems.push(`diagram.stepOrder[${index}] '${id}' is not a diagram component`);
  });
  for (const id of duplicatesOf(diagram.stepOrder)) problems.push(`diagram.stepOrder lists '${id}' more than once`);
  const stepped = new Set(diagram.stepOrder);
  for (const component of diagram.components) {
    if (!stepped.has(component.id)) problems.push(`diagram.stepOrder is missing diagram component '${component.id}'`);
  }

  componentOrder.forEach((id, index) => {
    if (id !== QA_TEST_COMPONENT_ID && !diagramIds.has(id) && !cardIds.has(id)) {
      problems.push(`componentOrder[${index}] '${id}' is not a card or diagram component`);
    }
  });
  for (const id of duplicatesOf(componentOrder)) problems.push(`componentOrder lists '${id}' more than once`);
  if (componentOrder[0] !== HUMAN_INITIATED_COMPONENT_ID) {
    problems.push(`componentOrder must start with '${HUMAN_INITIATED_COMPONENT_ID}', not '${componentOrder[0] ?? '(nothing)'}'`);
  }
  const qaEntry = componentOrder[QA_TEST_COMPONENT_RANK - 1];
  if (qaEntry !== QA_TEST_COMPONENT_ID) {
    problems.push(`componentOrder entry ${QA_TEST_COMPONENT_RANK} must be '${QA_TEST_COMPONENT_ID}', not '${qaEntry ?? '(nothing)'}'`);
  }
  return problems;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

interface ArchitectureIndex {
  commentable: ReadonlySet<string>;
  titles: ReadonlyMap<string, string>;
  /** What each component does, in the content's words: a card's description and highlights, a box's description. */
  descriptions: ReadonlyMap<string, string>;
}

// Comment calls look ids up on every request; the index is built once per content object.
const indexes = new WeakMap<Architecture, ArchitectureIndex>();

function indexOf(content: Architecture): ArchitectureIndex {
  const cached = indexes.get(content);
  if (cached !== undefined) return cached;
  const titles = new Map<string, string>();
  const descriptions = new Map<string, string>();
  for (const group of content.groups) {
    for (const card of group.cards) {
      titles.set(card.id, card.title);
      descriptions.set(card.id, [card.description, ...card.highlights].join(' '));
    }
  }
  for (const component of content.diagram.components) {
    titles.set(component.id, component.title);
    descriptions.set(component.id, component.description);
  }
  titles.set(QA_TEST_COMPONENT_ID, QA_TEST_COMPONENT_TITLE);
  const index = { commentable: new Set(titles.keys()), titles, descriptions };
  indexes.set(content, index);
  return index;
}

/** The ids a comment may attach to: every card, every diagram box, and the hidden QA test component. */
export function commentableComponentIds(content: Architecture): ReadonlySet<string> {
  return indexOf(content).commentable;
}

/** What a component does, in the content's words; undefined for the QA test component and anything else. */
export function componentDescription(content: Architecture, id: string): string | undefined {
  return indexOf(content).descriptions.get(id);
}

/** The title shown for a commentable id (the QA test component has one too); undefined for anything else. */
export function componentTitle(content: Architecture, id: string): string | undefined {
  return indexOf(content).titles.get(id);
}

/** The components under review, in the content's order, each once: every card and diagram box, never the QA test component. */
export function reviewedComponents(content: Architecture): Array<{ id: string; title: string; description: string }> {
  return [...commentableComponentIds(content)]
    .filter((id) => id !== QA_TEST_COMPONENT_ID)
    .map((id) => ({ id, title: componentTitle(content, id) ?? id, description: componentDescription(content, id) ?? '' }));
}
