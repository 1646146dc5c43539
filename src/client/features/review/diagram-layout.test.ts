import { describe, expect, it } from 'vitest';
import type { Architecture } from '../../../common/contract/architecture';
import { DIAGRAM_FONT, NODE_HEIGHT, READABLE_ZOOM, ZOOM_STEPS, diagramBounds, diagramView, nextZoom, nodeRect, type Rect } from './diagram-geometry';
import { box, column } from './diagram-test-fixtures';
import { layoutDiagram, roundedPath, type EdgeLabel, type Point } from './diagram-layout';

/** The shipped diagram's shape in small: a hub row, two flow rows with a middle box, a loop back, and the knowledge-graph row. */
const diagram: Architecture['diagram'] = {
  components: [
    box('hub', 'Connection Hub', column(0), 0, 'xl'),
    box('signals', 'Detection', column(0), 180, 'md'),
    box('changes', 'Detection', column(0), 300, 'md', true),
    box('dedup', 'Noise Removal', column(1), 180, 'md'),
    box('correlate', 'Noise Removal', column(1), 300, 'md', true),
    box('triage', 'Triage', column(2), 180, 'lg', true),
    box('engage', 'Triage', column(2), 300, 'md'),
    box('rca', 'Investigation', column(3), 240, 'lg', true),
    box('fix', 'Response', column(4), 180, 'md', true),
    box('verify', 'Validation', column(5), 240, 'md'),
    box('topology', 'IT Knowledge Graph', column(1), 480, 'xl'),
    box('history', 'IT Knowledge Graph', column(3), 480, 'xl'),
  ],
  edges: [
    { from: 'hub', to: 'signals', label: 'ingest' },
    { from: 'signals', to: 'dedup' },
    { from: 'dedup', to: 'correlate' },
    { from: 'changes', to: 'correlate', label: 'recent changes' },
    { from: 'correlate', to: 'triage', label: 'situation' },
    { from: 'triage', to: 'engage', label: 'approved' },
    { from: 'triage', to: 'rca' },
    { from: 'engage', to: 'rca' },
    { from: 'rca', to: 'fix', label: 'confirmed cause' },
    { from: 'fix', to: 'verify' },
    { from: 'verify', to: 'rca', label: 'not recovered' },
  ],
  stepOrder: ['signals', 'changes', 'dedup', 'correlate', 'triage', 'engage', 'rca', 'fix', 'verify', 'topology', 'history', 'hub'],
};

function segments(points: readonly Point[]): [Point, Point][] {
  const result: [Point, Point][] = [];
  for (let index = 1; index < points.length; index++) {
    const a = points[index - 1];
    const b = points[index];
    if (a !== undefined && b !== undefined) result.push([a, b]);
  }
  return result;
}

function crossesInterior([a, b]: [Point, Point], rect: Rect): boolean {
  const left = Math.min(a.x, b.x);
  const right = Math.max(a.x, b.x);
  const top = Math.min(a.y, b.y);
  const bottom = Math.max(a.y, b.y);
  return left < rect.x + rect.width && right > rect.x && top < rect.y + rect.height && bottom > rect.y && !(a.x === b.x && (a.x <= rect.x || a.x >= rect.x + rect.width)) && !(a.y === b.y && (a.y <= rect.y || a.y >= rect.y + rect.height));
}

function onBoundary(point: Point, rect: Rect): boolean {
  const withinX = point.x >= rect.x && point.x <= rect.x + rect.width;
  const withinY = point.y >= rect.y && point.y <= rect.y + rect.height;
  return (withinX && (point.y === rect.y || point.y === rect.y + rect.height)) || (withinY && (point.x === rect.x || point.x === rect.x + rect.width));
}

function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;
}

function rectOf(label: EdgeLabel): Rect {
  return { x: label.x - label.width / 2, y: label.y - label.height / 2, width: label.width, height: label.height };
}

/** Whether an orthogonal segment passes through a rectangle (touching its border counts). */
function segmentTouches([a, b]: [Point, Point], rect: Rect): boolean {
  const left = Math.min(a.x, b.x);
  const right = Math.max(a.x, b.x);
  const top = Math.min(a.y, b.y);
  const bottom = Math.max(a.y, b.y);
  return left <= rect.x + rect.width && right >= rect.x && top <= rect.y + rect.height && bottom >= rect.y;
}

/** The point `back` units before the end of a path, along its last stretch. */
function beforeEnd(points: readonly Point[], back: number): Point {
  const end = points[points.length - 1];
  const previous = points[points.length - 2];
  if (end === undefined || previous === undefined) throw new Error('a path needs two points');
  const length = Math.abs(end.x - previous.x) + Math.abs(end.y - previous.y);
  const t = Math.min(1, back / length);
  return { x: end.x + (previous.x - end.x) * t, y: end.y + (previous.y - end.y) * t };
}

describe('layoutDiagram', () => {
  const layout = layoutDiagram(diagram);
  const rects = diagram.components.map(nodeRect);

  it('routes every content arrow, and one knowledge-graph link per flagged box to a knowledge-graph box', () => {
    expect(layout.edges.filter((edge) => edge.kind === 'flow').map((edge) => `${edge.source}>${edge.target}`)).toEqual(diagram.edges.map((edge) => `${edge.from}>${edge.to}`));
    const links = layout.edges.filter((edge) => edge.kind === 'knowledge');
    expect(links.map((edge) => edge.source).sort()).toEqual(['changes', 'correlate', 'fix', 'rca', 'triage']);
    for (const link of links) expect(['topology', 'history']).toContain(link.target);
  });

  it('draws orthogonal paths from the source box to the target box that cross no box', () => {
    for (const edge of layout.edges) {
      const source = layout.rects.get(edge.source);
      const target = layout.rects.get(edge.target);
      if (source === undefined || target === undefined) throw new Error(`no box for ${edge.id}`);
      const first = edge.points[0];
      const last = edge.points[edge.points.length - 1];
      if (first === undefined || last === undefined) throw new Error(`${edge.id} has no points`);
      expect(onBoundary(first, source), `${edge.id} starts on its source`).toBe(true);
      expect(onBoundary(last, target), `${edge.id} ends on its target`).toBe(true);
      for (const [a, b] of segments(edge.points)) expect(a.x === b.x || a.y === b.y, `${edge.id} is orthogonal`).toBe(true);
      for (const rect of rects) {
        for (const segment of segments(edge.points)) expect(crossesInterior(segment, rect), `${edge.id} crosses the box at ${rect.x},${rect.y}`).toBe(false);
      }
    }
  });

  it('puts every label in free space: on no box and on no other label', () => {
    const labels = layout.edges.flatMap((edge) => (edge.label === undefined ? [] : [edge.label]));
    expect(labels.map((label) => label.text).sort()).toEqual(['approved', 'confirmed cause', 'ingest', 'not recovered', 'recent changes', 'situation']);
    const labelRects = labels.map((label) => ({ x: label.x - label.width / 2, y: label.y - label.height / 2, width: label.width, height: label.height }));
    for (const [index, label] of labelRects.entries()) {
      for (const rect of rects) expect(overlaps(label, rect), `label ${labels[index]?.text ?? ''} on a box`).toBe(false);
      for (const other of labelRects.slice(index + 1)) expect(overlaps(label, other)).toBe(false);
    }
  });

  it('keeps every label clear of every other arrow, and off its own arrowhead', () => {
    for (const edge of layout.edges) {
      if (edge.label === undefined) continue;
      const rect = rectOf(edge.label);
      for (const other of layout.edges) {
        if (other === edge) continue;
        for (const segment of segments(other.points)) expect(segmentTouches(segment, rect), `${other.id} runs over the label ${edge.label.text}`).toBe(false);
      }
      const head = beforeEnd(edge.points, 8);
      expect(head.x > rect.x && head.x < rect.x + rect.width && head.y > rect.y && head.y < rect.y + rect.height, `${edge.label.text} hides its arrowhead`).toBe(false);
    }
  });

  it('sizes each label pill to its text as measured, plus padding', () => {
    const measured = layoutDiagram(diagram, (text) => text.length * 10);
    for (const edge of measured.edges) {
      if (edge.label !== undefined) expect(edge.label.width).toBe(edge.label.text.length * 10 + 16);
    }
  });

  it('keeps everything inside the diagram bounds and is deterministic', () => {
    const bounds = diagramBounds(diagram.components);
    for (const edge of layout.edges) {
      for (const point of edge.points) {
        expect(point.x).toBeGreaterThanOrEqual(bounds.x);
        expect(point.x).toBeLessThanOrEqual(bounds.x + bounds.width);
        expect(point.y).toBeGreaterThanOrEqual(bounds.y);
        expect(point.y).toBeLessThanOrEqual(bounds.y + bounds.height);
      }
    }
    expect(layoutDiagram(diagram).edges).toEqual(layout.edges);
  });
});

describe('diagram geometry', () => {
  it('sizes boxes by their width class on the column grid', () => {
    expect(nodeRect({ x: 240, y: 180, width: 'xl' })).toEqual({ x: 240, y: 180, width: 440, height: NODE_HEIGHT });
    expect(diagramBounds([])).toEqual({ x: 0, y: 0, width: 0, height: 0 });
  });

  it('keeps the text readable at the least zoom the diagram opens at: every text 12 px or more', () => {
    expect(DIAGRAM_FONT.title * READABLE_ZOOM).toBeGreaterThanOrEqual(12);
    expect(DIAGRAM_FONT.label * READABLE_ZOOM).toBeGreaterThanOrEqual(12);
    expect(ZOOM_STEPS).toContain(READABLE_ZOOM);
  });

  it('fits the width when readable, else opens at the readable zoom and scrolls; Fit fits; a chosen zoom wins', () => {
    const bounds = { x: -24, y: -24, width: 2168, height: 624 };
    // A 1440 px desktop's container: fitting would shrink the text, so it scrolls.
    const desktop = diagramView(bounds, 1180);
    expect(desktop.zoom).toBe(READABLE_ZOOM);
    expect(desktop.fitZoom).toBeCloseTo(1180 / 2168);
    expect(desktop.width).toBe(Math.floor(2168 * READABLE_ZOOM));
    expect(desktop.scrolls).toBe(true);
    const phone = diagramView(bounds, 322);
    expect(phone.zoom).toBe(READABLE_ZOOM);
    expect(phone.scrolls).toBe(true);
    // Wide enough to fit at a readable size: fitted, no scrolling.
    const wide = diagramView(bounds, 2100);
    expect(wide.zoom).toBeCloseTo(2100 / 2168);
    expect(wide.scrolls).toBe(false);
    const fitted = diagramView(bounds, 1180, 'fit');
    expect(fitted.zoom).toBeCloseTo(1180 / 2168);
    expect(fitted.scrolls).toBe(false);
    expect(diagramView(bounds, 5000).zoom).toBe(1);
    expect(diagramView(bounds, 1180, 1).scrolls).toBe(true);
    expect(nextZoom(0.54, 1)).toBe(0.6);
    expect(nextZoom(0.54, -1)).toBe(0.5);
    expect(nextZoom(1.25, 1)).toBeNull();
  });

  it('draws rounded corners only where a path turns', () => {
    expect(roundedPath([{ x: 0, y: 0 }, { x: 100, y: 0 }])).toBe('M 0 0 L 100 0');
    expect(roundedPath([{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 50 }], 10)).toBe('M 0 0 L 90 0 Q 100 0 100 10 L 100 50');
    expect(roundedPath([])).toBe('');
  });
});
