import { describe, expect, it } from 'vitest';
import type { Architecture } from '../../../common/contract/architecture';
import { arrangeDiagram, bandsToFit } from './diagram-arrangement';
import { READABLE_ZOOM, diagramBounds, nodeRect, type Rect } from './diagram-geometry';
import { box, column } from './diagram-test-fixtures';
import { layoutDiagram, type Point } from './diagram-layout';

const [HUB, UPPER, MIDDLE, LOWER, GRAPH] = [0, 180, 240, 300, 480];

/** The shipped diagram's shape: nine phase columns in one row, the Connection Hub above, the IT Knowledge Graph below. */
const diagram: Architecture['diagram'] = {
  components: [
    box('signals', 'Detection', column(0), UPPER, 'md'),
    box('changes', 'Detection', column(0), LOWER, 'md', true),
    box('dedup', 'Noise Removal', column(1), UPPER, 'md'),
    box('correlate', 'Noise Removal', column(1), LOWER, 'md', true),
    box('ai', 'Initiation', column(2), UPPER, 'sm'),
    box('human', 'Initiation', column(2), LOWER, 'sm'),
    box('enrich', 'Context', column(3), UPPER, 'md', true),
    box('blast', 'Context', column(3), LOWER, 'md', true),
    box('triage', 'Triage', column(4), UPPER, 'lg', true),
    box('engage', 'Triage', column(4), LOWER, 'md'),
    box('rca', 'Investigation', column(5), MIDDLE, 'lg', true),
    box('plan', 'Response', column(6), UPPER, 'md', true),
    box('automate', 'Response', column(6), LOWER, 'md'),
    box('verify', 'Validation', column(7), MIDDLE, 'md'),
    box('review', 'Outcome', column(8), UPPER, 'md', true),
    box('prevent', 'Outcome', column(8), LOWER, 'md', true),
    box('topology', 'IT Knowledge Graph', column(2), GRAPH, 'xl'),
    box('history', 'IT Knowledge Graph', column(5), GRAPH, 'xl'),
    box('telemetry', 'Connection Hub', column(0), HUB, 'xl'),
    box('workflow', 'Connection Hub', column(4), HUB, 'xl'),
  ],
  edges: [
    { from: 'telemetry', to: 'signals', label: 'ingest' },
    { from: 'signals', to: 'dedup' },
    { from: 'dedup', to: 'correlate' },
    { from: 'changes', to: 'correlate', label: 'recent changes' },
    { from: 'correlate', to: 'ai', label: 'situation' },
    { from: 'ai', to: 'enrich' },
    { from: 'human', to: 'enrich' },
    { from: 'enrich', to: 'blast' },
    { from: 'blast', to: 'triage' },
    { from: 'triage', to: 'engage', label: 'approved' },
    { from: 'triage', to: 'rca' },
    { from: 'engage', to: 'rca' },
    { from: 'rca', to: 'plan', label: 'confirmed cause' },
    { from: 'plan', to: 'automate', label: 'approved steps' },
    { from: 'plan', to: 'verify', label: 'manual fix' },
    { from: 'automate', to: 'verify' },
    { from: 'verify', to: 'rca', label: 'not recovered' },
    { from: 'verify', to: 'review', label: 'resolved' },
    { from: 'review', to: 'prevent' },
  ],
  stepOrder: [],
};

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;

function placed(arranged: Architecture['diagram'], id: string): Rect {
  const component = arranged.components.find((candidate) => candidate.id === id);
  if (component === undefined) throw new Error(`no box ${id}`);
  return nodeRect(component);
}

describe('arrangeDiagram', () => {
  const wrapped = arrangeDiagram(diagram, 2);

  it('keeps the content layout where it fits at a readable size, and wraps it where it does not', () => {
    const oneRow = diagramBounds(diagram.components).width;
    expect(bandsToFit(diagram, oneRow * READABLE_ZOOM)).toBe(1);
    expect(bandsToFit(diagram, oneRow * READABLE_ZOOM - 1)).toBe(2);
    // A 1440 px desktop's diagram frame (1180 px) takes the wrapped flow at a readable size.
    expect(diagramBounds(wrapped.components).width * READABLE_ZOOM).toBeLessThanOrEqual(1180);
    expect(arrangeDiagram(diagram, 1)).toBe(diagram);
    // The same object again, so a layout routed for it is found again.
    expect(arrangeDiagram(diagram, 2)).toBe(wrapped);
  });

  it('wraps where the fewest arrows cross: the second band starts at Triage, with one arrow wrapping', () => {
    const bandTwo = ['triage', 'engage', 'rca', 'plan', 'automate', 'verify', 'review', 'prevent'];
    const secondTop = Math.min(...bandTwo.map((id) => placed(wrapped, id).y));
    for (const component of wrapped.components) {
      if (component.phase === 'Connection Hub' || component.phase === 'IT Knowledge Graph') continue;
      expect(component.y >= secondTop, component.id).toBe(bandTwo.includes(component.id));
    }
    // Each band reads left to right from the left edge, a column per phase, every box in its own row.
    expect(placed(wrapped, 'signals')).toMatchObject({ x: 0, y: UPPER });
    expect(placed(wrapped, 'blast')).toMatchObject({ x: column(3), y: LOWER });
    expect(placed(wrapped, 'triage')).toMatchObject({ x: 0, y: secondTop });
    expect(placed(wrapped, 'engage')).toMatchObject({ x: 0, y: secondTop + LOWER - UPPER });
    expect(placed(wrapped, 'rca')).toMatchObject({ x: column(1), y: secondTop + MIDDLE - UPPER });
    expect(placed(wrapped, 'prevent')).toMatchObject({ x: column(4), y: secondTop + LOWER - UPPER });
  });

  it('puts the Connection Hub above the first band and the IT Knowledge Graph between the bands, inside the width, on nothing', () => {
    const hub = ['telemetry', 'workflow'].map((id) => placed(wrapped, id));
    const graph = ['topology', 'history'].map((id) => placed(wrapped, id));
    const firstBand = ['signals', 'changes', 'blast'].map((id) => placed(wrapped, id));
    const secondBand = ['triage', 'engage', 'prevent'].map((id) => placed(wrapped, id));
    const firstBottom = Math.max(...firstBand.map((rect) => rect.y + rect.height));
    const secondTop = Math.min(...secondBand.map((rect) => rect.y));
    for (const rect of hub) expect(rect.y + rect.height).toBeLessThan(Math.min(...firstBand.map((band) => band.y)));
    for (const rect of graph) {
      expect(rect.y).toBeGreaterThan(firstBottom);
      expect(rect.y + rect.height).toBeLessThan(secondTop);
    }
    const rects = wrapped.components.map(nodeRect);
    const width = Math.max(...rects.map((rect) => rect.x + rect.width));
    for (const [index, rect] of rects.entries()) {
      expect(rect.x).toBeGreaterThanOrEqual(0);
      for (const other of rects.slice(index + 1)) expect(overlaps(rect, other)).toBe(false);
    }
    // The panels stay inside the wider band: they add no width of their own.
    const flowWidth = Math.max(...wrapped.components.filter((component) => !component.phase.startsWith('IT') && component.phase !== 'Connection Hub').map((component) => nodeRect(component).x + nodeRect(component).width));
    expect(width).toBe(flowWidth);
  });
});

describe('the wrapped flow routed', () => {
  const wrapped = arrangeDiagram(diagram, 2);
  const layout = layoutDiagram(wrapped);
  const rects = [...layout.rects.values()];

  const segments = (points: readonly Point[]) => points.slice(1).map((point, index): [Point, Point] => [points[index] ?? point, point]);
  const crossesInterior = ([a, b]: [Point, Point], rect: Rect) =>
    Math.min(a.x, b.x) < rect.x + rect.width &&
    Math.max(a.x, b.x) > rect.x &&
    Math.min(a.y, b.y) < rect.y + rect.height &&
    Math.max(a.y, b.y) > rect.y &&
    !(a.x === b.x && (a.x <= rect.x || a.x >= rect.x + rect.width)) &&
    !(a.y === b.y && (a.y <= rect.y || a.y >= rect.y + rect.height));

  it('draws every arrow, the wrapping one included, with right angles only and through no box', () => {
    expect(layout.edges.filter((edge) => edge.kind === 'flow')).toHaveLength(diagram.edges.length);
    for (const edge of layout.edges) {
      for (const segment of segments(edge.points)) {
        expect(segment[0].x === segment[1].x || segment[0].y === segment[1].y, `${edge.id} is orthogonal`).toBe(true);
        for (const rect of rects) expect(crossesInterior(segment, rect), `${edge.id} crosses the box at ${rect.x},${rect.y}`).toBe(false);
      }
    }
    // The arrow from the end of the first band comes down to the start of the second.
    const wrap = layout.edges.find((edge) => edge.id === 'flow:blast->triage');
    expect(wrap?.points.at(-1)?.y).toBe(placed(wrapped, 'triage').y);
  });

  it('keeps every label off the boxes, the other labels and the other arrows', () => {
    const labelled = layout.edges.filter((edge) => edge.label !== undefined);
    expect(labelled).toHaveLength(diagram.edges.filter((edge) => edge.label !== undefined).length);
    const labelRects = labelled.map(({ label }) => (label === undefined ? null : { x: label.x - label.width / 2, y: label.y - label.height / 2, width: label.width, height: label.height }));
    for (const [index, rect] of labelRects.entries()) {
      if (rect === null) continue;
      for (const box of rects) expect(overlaps(rect, box)).toBe(false);
      for (const other of labelRects.slice(index + 1)) if (other !== null) expect(overlaps(rect, other)).toBe(false);
      for (const edge of layout.edges) {
        if (edge === labelled[index]) continue;
        for (const [a, b] of segments(edge.points)) {
          const touches = Math.min(a.x, b.x) <= rect.x + rect.width && Math.max(a.x, b.x) >= rect.x && Math.min(a.y, b.y) <= rect.y + rect.height && Math.max(a.y, b.y) >= rect.y;
          expect(touches, `${edge.id} runs over the label ${labelled[index]?.label?.text ?? ''}`).toBe(false);
        }
      }
    }
  });
});
