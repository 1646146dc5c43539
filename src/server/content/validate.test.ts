import { describe, expect, it } from 'vitest';
import { type Architecture } from '../../common/contract/architecture.js';
import { DIAGRAM_PHASES, QA_TEST_COMPONENT_ID, UNKNOWN_COMPONENT_RANK, componentRank } from '../../common/api/architecture.js';
import { architecture } from './architecture.js';
import { HUMAN_INITIATED_COMPONENT_ID, commentableComponentIds, componentTitle, loadArchitecture } from './validate.js';

/** A deep copy of the shipped content with one thing broken; the original stays intact for other tests. */
function broken(mutate: (copy: Architecture) => void): Architecture {
  const copy = structuredClone(architecture);
  mutate(copy);
  return copy;
}

/** The message loadArchitecture throws for the content, or a failure when it accepts it. */
function problemsOf(content: unknown): string {
  try {
    loadArchitecture(content);
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('loadArchitecture accepted broken content');
}

const allCards = (content: Architecture) => content.groups.flatMap((group) => group.cards);
const diagramIds = (content: Architecture) => content.diagram.components.map((component) => component.id);
/** One entry of a list, or a failure: typed without a non-null assertion. */
function at<T>(list: readonly T[], index: number): T {
  const value = list[index];
  if (value === undefined) throw new Error(`no entry at ${index}`);
  return value;
}

/** WCAG 2.x relative luminance and contrast ratio of two #rrggbb colours. */
function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.039_28 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe('the shipped architecture content', () => {
  it('passes loadArchitecture and comes back equal and deeply frozen', () => {
    const loaded = loadArchitecture();
    expect(loaded).toEqual(architecture);
    expect(Object.isFrozen(loaded)).toBe(true);
    expect(Object.isFrozen(at(loaded.diagram.components, 0))).toBe(true);
    expect(Object.isFrozen(loaded.componentOrder)).toBe(true);
    // The exported constant is not frozen: tests copy and break it.
    expect(Object.isFrozen(architecture)).toBe(false);
  });

  it('has the three card groups of the product, in order, with their cards', () => {
    expect(architecture.groups.map((group) => group.title)).toEqual([
      'Platform-Wide Functionality',
      'AI-Driven Operations Workflows',
      'User Experience Models',
    ]);
    expect(architecture.groups.map((group) => group.cards.map((card) => card.title))).toEqual([
      ['Authentication and SSO', 'Access Controls and RBAC', 'Unified Data Connections and ITKG', 'Data Management and Compliance', 'AI Chat Interface'],
      ['Event Management', 'Agentic Incident Management', 'AI Incident Prevention', 'AI Operations Collaboration', 'Unified Analytics'],
      ['EM Console', 'Human-AI Collaboration', 'AI Web Console'],
    ]);
  });

  it('covers every diagram phase and side panel with 16 to 20 components', () => {
    const { components } = architecture.diagram;
    expect(components.length).toBeGreaterThanOrEqual(16);
    expect(components.length).toBeLessThanOrEqual(20);
    expect(new Set(components.map((component) => component.phase))).toEqual(new Set(DIAGRAM_PHASES));
    expect(components.find((component) => component.id === HUMAN_INITIATED_COMPONENT_ID)).toMatchObject({
      title: 'Human-Initiated',
      phase: 'Initiation',
    });
    expect(components.filter((component) => component.phase === 'Initiation').length).toBeGreaterThanOrEqual(2);
    expect(components.some((component) => component.connectsToKnowledgeGraph === true)).toBe(true);
  });

  it('gives each phase one colour, readable with white or with dark text', () => {
    const colourOf = new Map<string, string>();
    for (const component of architecture.diagram.components) {
      const known = colourOf.get(component.phase);
      if (known !== undefined) expect(component.color, component.id).toBe(known);
      colourOf.set(component.phase, component.color);
      const best = Math.max(contrast(component.color, '#ffffff'), contrast(component.color, '#111827'));
      expect(best, `${component.id} ${component.color}`).toBeGreaterThanOrEqual(4.5);
    }
    expect(new Set(colourOf.values()).size).toBe(DIAGRAM_PHASES.length);
  });

  it('lays the main flow out left to right by phase, with the side panels on rows of their own', () => {
    const { components } = architecture.diagram;
    const mainPhases: readonly string[] = DIAGRAM_PHASES.slice(0, 9);
    const main = components.filter((component) => mainPhases.includes(component.phase));
    const panels = components.filter((component) => !main.includes(component));
    for (const component of main) {
      expect(component.x, component.id).toBe(mainPhases.indexOf(component.phase) * 240);
      expect(component.width, component.id).not.toBe('xl');
    }
    const mainRows = new Set(main.map((component) => component.y));
    for (const panel of panels) expect(mainRows.has(panel.y), panel.id).toBe(false);
    // No two boxes share a position.
    expect(new Set(components.map((component) => `${component.x},${component.y}`)).size).toBe(components.length);
  });

  it('reveals every box once and ranks Human-Initiated first and the QA component 17th', () => {
    expect([...architecture.diagram.stepOrder].sort()).toEqual(diagramIds(architecture).sort());
    expect(architecture.componentOrder).toHaveLength(17);
    expect(componentRank(architecture.componentOrder, HUMAN_INITIATED_COMPONENT_ID)).toBe(1);
    expect(componentRank(architecture.componentOrder, QA_TEST_COMPONENT_ID)).toBe(17);
    expect(componentRank(architecture.componentOrder, 'authentication-and-sso')).toBe(UNKNOWN_COMPONENT_RANK);
    // The 15 between are diagram boxes, in the order the reveal shows them.
    const middle = architecture.componentOrder.slice(1, 16);
    const stepPositions = middle.map((id) => architecture.diagram.stepOrder.indexOf(id));
    expect(stepPositions.every((position) => position >= 0)).toBe(true);
    expect(stepPositions).toEqual([...stepPositions].sort((a, b) => a - b));
  });
});

describe('loadArchitecture rejects broken content with every problem listed', () => {
  it('names the content file and the schema path when the shape is wrong', () => {
    const message = problemsOf(
      broken((copy) => {
        at(copy.diagram.components, 0).color = 'blue';
      }),
    );
    expect(message).toContain('Invalid architecture content (src/server/content/architecture.ts)');
    expect(message).toMatch(/diagram\.components\[0\]\.color: colours are #rrggbb/);
    expect(problemsOf({ ...architecture, extra: true })).toMatch(/extra/);
  });

  it('catches an id used twice, across cards, groups and diagram components', () => {
    const card = at(at(architecture.groups, 0).cards, 0);
    expect(
      problemsOf(
        broken((copy) => {
          at(copy.diagram.components, 0).id = card.id;
          copy.diagram.stepOrder[0] = card.id;
        }),
      ),
    ).toContain(`id '${card.id}' is used 2 times: card '${card.title}', diagram component`);
    expect(
      problemsOf(
        broken((copy) => {
          at(copy.groups, 1).id = at(allCards(copy), 3).id;
        }),
      ),
    ).toContain("id 'data-management-and-compliance' is used 2 times: card 'Data Management and Compliance', group 'AI-Driven Operations Workflows'");
    expect(
      problemsOf(
        broken((copy) => {
          at(copy.groups, 2).cards.push(structuredClone(at(at(copy.groups, 0).cards, 1)));
        }),
      ),
    ).toContain("id 'access-controls-and-rbac' is used 2 times");
  });

  it('catches the QA test component id on a visible card', () => {
    const message = problemsOf(
      broken((copy) => {
        at(at(copy.groups, 0).cards, 0).id = QA_TEST_COMPONENT_ID;
      }),
    );
    expect(message).toContain(`id '${QA_TEST_COMPONENT_ID}' is reserved for the hidden QA test component but is used by card`);
  });

  it('catches an edge whose end is not a diagram component, or a loop onto itself', () => {
    const message = problemsOf(
      broken((copy) => {
        copy.diagram.edges.push({ from: 'observability-signals', to: 'no-such-box' });
        copy.diagram.edges.push({ from: 'authentication-and-sso', to: 'human-initiated' });
        copy.diagram.edges.push({ from: 'human-initiated', to: 'human-initiated' });
      }),
    );
    const last = architecture.diagram.edges.length;
    expect(message).toContain(`diagram.edges[${last}].to 'no-such-box' is not a diagram component`);
    expect(message).toContain(`diagram.edges[${last + 1}].from 'authentication-and-sso' is not a diagram component`);
    expect(message).toContain(`diagram.edges[${last + 2}] connects 'human-initiated' to itself`);
  });

  it('catches a duplicated edge', () => {
    const message = problemsOf(
      broken((copy) => {
        copy.diagram.edges.push({ ...at(copy.diagram.edges, 0) });
      }),
    );
    expect(message).toMatch(/is listed more than once/);
  });

  it('catches a missing, a duplicated and an unknown step', () => {
    const missing = at(architecture.diagram.stepOrder, 4);
    expect(
      problemsOf(
        broken((copy) => {
          copy.diagram.stepOrder.splice(4, 1);
        }),
      ),
    ).toContain(`diagram.stepOrder is missing diagram component '${missing}'`);
    expect(
      problemsOf(
        broken((copy) => {
          copy.diagram.stepOrder.push(at(copy.diagram.stepOrder, 0));
        }),
      ),
    ).toContain(`diagram.stepOrder lists '${at(architecture.diagram.stepOrder, 0)}' more than once`);
    expect(
      problemsOf(
        broken((copy) => {
          copy.diagram.stepOrder.push('em-console');
        }),
      ),
    ).toContain(`diagram.stepOrder[${architecture.diagram.stepOrder.length}] 'em-console' is not a diagram component`);
  });

  it('catches a component order of the wrong length', () => {
    expect(
      problemsOf(
        broken((copy) => {
          copy.componentOrder.splice(5, 1);
        }),
      ),
    ).toMatch(/componentOrder: .*17/);
    expect(
      problemsOf(
        broken((copy) => {
          copy.componentOrder.push('em-console');
        }),
      ),
    ).toMatch(/componentOrder: .*17/);
  });

  it("catches a component order that does not start with 'human-initiated'", () => {
    const message = problemsOf(
      broken((copy) => {
        copy.componentOrder.reverse();
      }),
    );
    expect(message).toContain(`componentOrder must start with 'human-initiated', not '${QA_TEST_COMPONENT_ID}'`);
    expect(message).toContain(`componentOrder entry 17 must be '${QA_TEST_COMPONENT_ID}', not 'human-initiated'`);
  });

  it('catches a component order without the QA component 17th', () => {
    const message = problemsOf(
      broken((copy) => {
        copy.componentOrder[16] = 'service-topology';
      }),
    );
    expect(message).toContain(`componentOrder entry 17 must be '${QA_TEST_COMPONENT_ID}', not 'service-topology'`);
  });

  it('catches a duplicated or unknown component order entry', () => {
    const duplicated = broken((copy) => {
      copy.componentOrder[5] = at(copy.componentOrder, 4);
    });
    expect(problemsOf(duplicated)).toContain(`componentOrder lists '${at(architecture.componentOrder, 4)}' more than once`);
    expect(
      problemsOf(
        broken((copy) => {
          copy.componentOrder[3] = 'no-such-component';
        }),
      ),
    ).toContain("componentOrder[3] 'no-such-component' is not a card or diagram component");
  });

  it('lists every problem in one error, one per line', () => {
    const message = problemsOf(
      broken((copy) => {
        copy.diagram.edges.push({ from: 'ghost', to: 'human-initiated' });
        copy.diagram.stepOrder.pop();
        copy.componentOrder[16] = 'ai-initiated';
      }),
    );
    const lines = message.split('\n').slice(1);
    expect(message.split('\n')[0]).toMatch(/, 4 problems:$/);
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).toMatch(/^ {2}- /);
  });
});

describe('commentableComponentIds and componentTitle', () => {
  const loaded = loadArchitecture();

  it('allows every card, every diagram box and the QA component, and nothing else', () => {
    const ids = commentableComponentIds(loaded);
    const expected = [...allCards(loaded).map((card) => card.id), ...diagramIds(loaded), QA_TEST_COMPONENT_ID];
    expect([...ids].sort()).toEqual(expected.sort());
    expect(ids.has('platform-wide-functionality')).toBe(false);
    expect(ids.has('no-such-component')).toBe(false);
    expect(commentableComponentIds(loaded)).toBe(ids);
  });

  it('titles cards, boxes and the QA component; undefined for anything else', () => {
    expect(componentTitle(loaded, HUMAN_INITIATED_COMPONENT_ID)).toBe('Human-Initiated');
    expect(componentTitle(loaded, 'ai-web-console')).toBe('AI Web Console');
    expect(componentTitle(loaded, QA_TEST_COMPONENT_ID)).toBe('QA Test Component');
    expect(componentTitle(loaded, 'user-experience-models')).toBeUndefined();
    expect(componentTitle(loaded, 'no-such-component')).toBeUndefined();
  });
});
