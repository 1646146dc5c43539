import type { Architecture, DiagramComponent } from '../../../common/contract/architecture';
import { DIAGRAM_FONT, diagramBounds, nodeRect, type Rect } from './diagram-geometry';

/**
 * Routes the incident-flow arrows around the boxes. The content gives positions only; straight or
 * bezier lines between them would cut through neighbouring boxes and pile their labels on top of
 * each other, so each arrow is an orthogonal path chosen from a small set of shapes (straight, one
 * or two bends through the gaps between columns and rows) by a cost: no path may cross a box or
 * leave the diagram, every label must sit in free space, and shorter paths with fewer bends,
 * crossings and shared stretches win. No arrow runs over another arrow's label or a label over
 * another arrow while any route avoids it. Pure and deterministic, so a content edit re-routes itself
 * and the unit test can check the whole diagram.
 */

export interface Point {
  x: number;
  y: number;
}

type Side = 'left' | 'right' | 'top' | 'bottom';
export type EdgeKind = 'flow' | 'knowledge';

/** A label's centre and size, in diagram units. */
export interface EdgeLabel {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RoutedEdge {
  id: string;
  source: string;
  target: string;
  kind: EdgeKind;
  points: Point[];
  label?: EdgeLabel;
}

export interface DiagramLayout {
  bounds: Rect;
  rects: ReadonlyMap<string, Rect>;
  edges: RoutedEdge[];
}

export const KNOWLEDGE_GRAPH_PHASE: DiagramComponent['phase'] = 'IT Knowledge Graph';

/** The arrow labels' font, as drawn: semibold at the diagram's label size. */
export const LABEL_FONT = { size: DIAGRAM_FONT.label, weight: 600 } as const;
/**
 * An arrow label's pill: its height, the padding either side of the text, and the width a character
 * is taken to need when the text cannot be measured (a wide font's, so the guess errs roomy).
 */
const LABEL_BOX = { height: 18, paddingX: 8, charWidth: 0.64 * LABEL_FONT.size } as const;

/** The width of a label's text at LABEL_FONT, in diagram units. */
export type TextWidth = (text: string) => number;
const estimatedTextWidth: TextWidth = (text) => text.length * LABEL_BOX.charWidth;

/** Clearance kept between a path and any box it does not start or end at. */
const BOX_CLEARANCE = 10;
/** Clearance kept between a label and a box, another label, and any other arrow. */
const LABEL_CLEARANCE = 3;
const LABEL_SPACING = 6;
const LABEL_TO_ARROW = 4;
/** How far a label beside its arrow keeps from the line. */
const LABEL_BESIDE_GAP = 6;
/** The stretch before an arrow's end its head covers, which a label or a crossing arrow would hide. */
const ARROWHEAD_ZONE = 16;
const BEND_COST = 40;
const SHORT_STUB = 14;

export function labelSize(text: string, textWidth: TextWidth = estimatedTextWidth): { width: number; height: number } {
  return { width: Math.ceil(textWidth(text) + LABEL_BOX.paddingX * 2), height: LABEL_BOX.height };
}

const OUTWARD: Readonly<Record<Side, Point>> = {
  left: { x: -1, y: 0 },
  right: { x: 1, y: 0 },
  top: { x: 0, y: -1 },
  bottom: { x: 0, y: 1 },
};
const SIDES: readonly Side[] = ['right', 'bottom', 'top', 'left'];

const isHorizontalSide = (side: Side) => side === 'left' || side === 'right';

/**
 * Whether an arrow may use this side of `rect` to reach `other`: a left or right side only when
 * `other` reaches as far that way or further (leaving a box backwards is never the clearest route;
 * a box flush with this one's side, such as a panel above a column, can be reached round it); tops
 * and bottoms always, because the rows between the boxes carry the arrows that go around.
 */
function facesTowards(rect: Rect, side: Side, other: Rect): boolean {
  if (side === 'right') return other.x + other.width >= rect.x + rect.width;
  if (side === 'left') return other.x <= rect.x;
  return true;
}

interface Port {
  point: Point;
  side: Side;
  /** How far from the middle of its side (0 in the middle, 1 at a corner): a small tie-breaker. */
  offCentre: number;
}

/** A rectangle's extent along a side: y and height down a left or right side, x and width along a top or bottom. */
function extentAlong(rect: Rect, side: Side): { start: number; length: number } {
  return isHorizontalSide(side) ? { start: rect.y, length: rect.height } : { start: rect.x, length: rect.width };
}

function ports(rect: Rect, side: Side, other: Rect): Port[] {
  const { start, length } = extentAlong(rect, side);
  const facing = extentAlong(other, side);
  // The coordinate of the side itself: x for a left or right side, y for a top or bottom.
  const edge = side === 'left' ? rect.x : side === 'right' ? rect.x + rect.width : side === 'top' ? rect.y : rect.y + rect.height;
  const middle = start + length / 2;
  const positions = new Set([middle, start + length * 0.3, start + length * 0.7]);
  // Where the two boxes face each other, a port in the middle of that stretch gives a straight arrow.
  const overlapStart = Math.max(start, facing.start);
  const overlapEnd = Math.min(start + length, facing.start + facing.length);
  if (overlapEnd - overlapStart >= 16) positions.add((overlapStart + overlapEnd) / 2);
  return [...positions].map((position) => ({
    point: isHorizontalSide(side) ? { x: edge, y: position } : { x: position, y: edge },
    side,
    offCentre: Math.abs(position - middle) / (length / 2),
  }));
}

/** Free positions between box edges: the lanes (x) and bands (y) a path may run along. */
function gapPositions(edges: readonly number[], outerLow: number, outerHigh: number): number[] {
  const sorted = [...new Set(edges)].sort((a, b) => a - b);
  const positions = new Set<number>([outerLow, outerHigh]);
  for (let index = 1; index < sorted.length; index++) {
    const low = sorted[index - 1];
    const high = sorted[index];
    if (low === undefined || high === undefined) continue;
    const gap = high - low;
    if (gap < 2 * BOX_CLEARANCE) continue;
    positions.add(low + gap / 2);
    if (gap >= 60) {
      positions.add(low + gap / 3);
      positions.add(low + (gap * 2) / 3);
    }
  }
  return [...positions].sort((a, b) => a - b);
}

/** The free positions a path may turn at right after leaving `from` in `direction`: the nearest two. */
function turnsAfter(positions: readonly number[], from: number, direction: number): number[] {
  const ahead = positions.filter((position) => (position - from) * direction > 0);
  return (direction > 0 ? ahead : ahead.reverse()).slice(0, 2);
}

/** The free positions a path may make its last turn at before arriving at `to` moving in `direction`. */
function turnsBefore(positions: readonly number[], to: number, direction: number): number[] {
  const behind = positions.filter((position) => (to - position) * direction > 0);
  return (direction > 0 ? behind.reverse() : behind).slice(0, 2);
}

/** The free positions strictly between two coordinates: where a path between bands of boxes can cross over. */
function positionsBetween(positions: readonly number[], a: number, b: number): number[] {
  return positions.filter((position) => position > Math.min(a, b) && position < Math.max(a, b));
}

/**
 * The orthogonal paths from one port to the other that leave and enter their boxes head-on:
 * straight, one bend (L), two bends (a step or a U through a gap) and four bends (out to the
 * nearest gap, along it, into the gap before the target). Turns happen in the gaps nearest to
 * either end, and in any gap between the two ends, where an arrow from one band of boxes to
 * another crosses over; that keeps the search small without losing the routes a reader would draw.
 */
function candidatePaths(from: Port, to: Port, lanes: readonly number[], bands: readonly number[]): Point[][] {
  const p = from.point;
  const q = to.point;
  const out = OUTWARD[from.side];
  const inward = { x: -OUTWARD[to.side].x, y: -OUTWARD[to.side].y };
  const paths: Point[][] = [];
  const horizontalOut = isHorizontalSide(from.side);
  const horizontalIn = isHorizontalSide(to.side);

  if (horizontalOut && horizontalIn) {
    if (p.y === q.y && out.x === inward.x && (q.x - p.x) * out.x > 0) paths.push([p, q]);
    if (p.y !== q.y) {
      const around = out.x !== inward.x ? lanes.filter((x) => (x - p.x) * out.x > 0 && (q.x - x) * inward.x > 0) : [];
      for (const x of new Set([(p.x + q.x) / 2, ...turnsAfter(lanes, p.x, out.x), ...turnsBefore(lanes, q.x, inward.x), ...around])) {
        if ((x - p.x) * out.x > 0 && (q.x - x) * inward.x > 0) paths.push([p, { x, y: p.y }, { x, y: q.y }, q]);
      }
    }
  } else if (!horizontalOut && !horizontalIn) {
    if (p.x === q.x && out.y === inward.y && (q.y - p.y) * out.y > 0) paths.push([p, q]);
    if (p.x !== q.x) {
      // A U (leaving and entering the same way, e.g. a loop back over the top) may need any band beyond both ends.
      const around = out.y !== inward.y ? bands.filter((y) => (y - p.y) * out.y > 0 && (q.y - y) * inward.y > 0) : [];
      for (const y of new Set([(p.y + q.y) / 2, ...turnsAfter(bands, p.y, out.y), ...turnsBefore(bands, q.y, inward.y), ...around, ...positionsBetween(bands, p.y, q.y)])) {
        if ((y - p.y) * out.y > 0 && (q.y - y) * inward.y > 0) paths.push([p, { x: p.x, y }, { x: q.x, y }, q]);
      }
    }
  } else if (horizontalOut) {
    if ((q.x - p.x) * out.x > 0 && (q.y - p.y) * inward.y > 0) paths.push([p, { x: q.x, y: p.y }, q]);
    for (const x of turnsAfter(lanes, p.x, out.x)) {
      if (x === q.x) continue;
      for (const y of new Set([...turnsBefore(bands, q.y, inward.y), ...positionsBetween(bands, p.y, q.y)])) {
        if (y !== p.y && (q.y - y) * inward.y > 0) paths.push([p, { x, y: p.y }, { x, y }, { x: q.x, y }, q]);
      }
    }
  } else {
    if ((q.y - p.y) * out.y > 0 && (q.x - p.x) * inward.x > 0) paths.push([p, { x: p.x, y: q.y }, q]);
    for (const y of new Set([...turnsAfter(bands, p.y, out.y), ...positionsBetween(bands, p.y, q.y)])) {
      if (y === q.y || (y - p.y) * out.y <= 0) continue;
      for (const x of turnsBefore(lanes, q.x, inward.x)) {
        if (x !== p.x) paths.push([p, { x: p.x, y }, { x, y }, { x, y: q.y }, q]);
      }
    }
  }
  return paths;
}

function pathLength(path: readonly Point[]): number {
  let length = 0;
  for (let index = 1; index < path.length; index++) {
    const a = path[index - 1];
    const b = path[index];
    if (a !== undefined && b !== undefined) length += Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
  }
  return length;
}

/** What a path costs at least, whatever else is on the diagram. */
function lowerBound(path: readonly Point[], from: Port, to: Port): number {
  return pathLength(path) + BEND_COST * (path.length - 2) + 30 * (from.offCentre + to.offCentre);
}

function segmentHitsRect(a: Point, b: Point, rect: Rect, margin: number): boolean {
  const left = rect.x - margin;
  const right = rect.x + rect.width + margin;
  const top = rect.y - margin;
  const bottom = rect.y + rect.height + margin;
  if (a.y === b.y) {
    if (a.y <= top || a.y >= bottom) return false;
    return Math.min(a.x, b.x) < right && Math.max(a.x, b.x) > left;
  }
  if (a.x <= left || a.x >= right) return false;
  return Math.min(a.y, b.y) < bottom && Math.max(a.y, b.y) > top;
}

function rectsOverlap(a: Rect, b: Rect, margin: number): boolean {
  return a.x < b.x + b.width + margin && a.x + a.width + margin > b.x && a.y < b.y + b.height + margin && a.y + a.height + margin > b.y;
}

function inside(point: Point, bounds: Rect): boolean {
  return point.x >= bounds.x && point.x <= bounds.x + bounds.width && point.y >= bounds.y && point.y <= bounds.y + bounds.height;
}

function labelRect(label: { x: number; y: number; width: number; height: number }): Rect {
  return { x: label.x - label.width / 2, y: label.y - label.height / 2, width: label.width, height: label.height };
}

interface Segment {
  a: Point;
  b: Point;
  edge: RoutedEdge;
}

function segmentsOf(edge: RoutedEdge): Segment[] {
  const result: Segment[] = [];
  for (let index = 1; index < edge.points.length; index++) {
    const a = edge.points[index - 1];
    const b = edge.points[index];
    if (a !== undefined && b !== undefined) result.push({ a, b, edge });
  }
  return result;
}

/** Length two parallel segments run along each other (closer than 6 units). */
function sharedLength(a1: Point, a2: Point, b1: Point, b2: Point): number {
  const aHorizontal = a1.y === a2.y;
  const bHorizontal = b1.y === b2.y;
  if (aHorizontal !== bHorizontal) return 0;
  if (aHorizontal) {
    if (Math.abs(a1.y - b1.y) >= 6) return 0;
    return Math.max(0, Math.min(Math.max(a1.x, a2.x), Math.max(b1.x, b2.x)) - Math.max(Math.min(a1.x, a2.x), Math.min(b1.x, b2.x)));
  }
  if (Math.abs(a1.x - b1.x) >= 6) return 0;
  return Math.max(0, Math.min(Math.max(a1.y, a2.y), Math.max(b1.y, b2.y)) - Math.max(Math.min(a1.y, a2.y), Math.min(b1.y, b2.y)));
}

/** Where a horizontal and a vertical segment cross (not merely touch), or null. */
function crossing(a1: Point, a2: Point, b1: Point, b2: Point): Point | null {
  const aHorizontal = a1.y === a2.y;
  const bHorizontal = b1.y === b2.y;
  if (aHorizontal === bHorizontal) return null;
  const [h1, h2, v1, v2] = aHorizontal ? [a1, a2, b1, b2] : [b1, b2, a1, a2];
  const x = v1.x;
  const y = h1.y;
  return x > Math.min(h1.x, h2.x) && x < Math.max(h1.x, h2.x) && y > Math.min(v1.y, v2.y) && y < Math.max(v1.y, v2.y) ? { x, y } : null;
}

interface RouteRequest {
  id: string;
  source: string;
  target: string;
  kind: EdgeKind;
  labelText?: string;
}

interface Router {
  /**
   * The cheapest route. First one that keeps clear of every label placed so far (and whose own
   * label keeps clear of every arrow); only when no route can, the cheapest that does not.
   */
  route(request: RouteRequest): { edge: RoutedEdge; cost: number } | null;
  commit(edge: RoutedEdge): void;
}

function createRouter(rects: ReadonlyMap<string, Rect>, bounds: Rect, textWidth: TextWidth): Router {
  const all = [...rects.values()];
  const lanes = gapPositions(
    all.flatMap((rect) => [rect.x, rect.x + rect.width]),
    bounds.x + BOX_CLEARANCE,
    bounds.x + bounds.width - BOX_CLEARANCE,
  );
  const bands = gapPositions(
    all.flatMap((rect) => [rect.y, rect.y + rect.height]),
    bounds.y + BOX_CLEARANCE,
    bounds.y + bounds.height - BOX_CLEARANCE,
  );
  const boxIds = [...rects.keys()];
  const placedSegments: Segment[] = [];
  const placedLabels: Rect[] = [];
  const usedPorts = new Map<string, number>();
  const portKey = (id: string, point: Point) => `${id}@${point.x},${point.y}`;

  function pathCost(request: RouteRequest, path: Point[], from: Port, to: Port, source: Rect, target: Rect, strict: boolean): number | null {
    for (let index = 1; index < path.length; index++) {
      const a = path[index - 1];
      const b = path[index];
      if (a === undefined || b === undefined) return null;
      if (!inside(b, bounds)) return null;
      if (a.x === b.x && a.y === b.y) return null;
      for (let box = 0; box < boxIds.length; box++) {
        const id = boxIds[box];
        const rect = all[box];
        if (rect === undefined) continue;
        const own = id === request.source || id === request.target;
        if (segmentHitsRect(a, b, rect, own ? 0 : BOX_CLEARANCE)) return null;
      }
    }
    // The arrow must reach its target from outside: the last stretch may not start inside the source.
    if (path.length > 2 && segmentHitsRect(path[path.length - 2] ?? to.point, to.point, source, 0)) return null;
    if (segmentHitsRect(from.point, path[1] ?? from.point, target, 0)) return null;

    let cost = lowerBound(path, from, to);
    for (let index = 1; index < path.length - 1; index++) {
      const a = path[index - 1];
      const b = path[index];
      const c = path[index + 1];
      if (a !== undefined && b !== undefined && c !== undefined) {
        if (Math.abs(a.x - b.x) + Math.abs(a.y - b.y) < SHORT_STUB || Math.abs(b.x - c.x) + Math.abs(b.y - c.y) < SHORT_STUB) cost += 60;
      }
    }
    // An arrow turning just before its box leaves its head no straight run to show on.
    const lastTurn = path[path.length - 2];
    if (request.kind === 'flow' && path.length > 2 && lastTurn !== undefined && distance(lastTurn, to.point) < ARROWHEAD_ZONE + 4) cost += 150;
    if ((usedPorts.get(portKey(request.source, from.point)) ?? 0) > 0) cost += 120;
    if ((usedPorts.get(portKey(request.target, to.point)) ?? 0) > 0) cost += request.kind === 'knowledge' ? 20 : 120;

    for (let index = 1; index < path.length; index++) {
      const a = path[index - 1];
      const b = path[index];
      if (a === undefined || b === undefined) continue;
      for (const segment of placedSegments) {
        const other = segment.edge;
        const sameBus = request.kind === 'knowledge' && other.kind === 'knowledge' && other.target === request.target;
        const shared = sharedLength(a, b, segment.a, segment.b);
        if (shared > 0) cost += shared * (sameBus ? 0.1 : 12);
        const at = crossing(a, b, segment.a, segment.b);
        if (at === null) continue;
        cost += request.kind === 'flow' && other.kind === 'flow' ? 150 : sameBus ? 4 : 30;
        // Crossing at an arrowhead, this arrow's or the other's, makes it hard to see which box the arrow enters.
        const otherEnd = other.points[other.points.length - 1];
        if (other.kind === 'flow' && otherEnd !== undefined && distance(at, otherEnd) < ARROWHEAD_ZONE + 8) cost += 120;
        if (request.kind === 'flow' && distance(at, to.point) < ARROWHEAD_ZONE + 8) cost += 120;
      }
      for (const rect of placedLabels) {
        if (!segmentHitsRect(a, b, rect, LABEL_TO_ARROW)) continue;
        if (strict) return null;
        cost += 400;
      }
    }
    return cost;
  }

  /**
   * Where a label goes on `path`: a pill on the line of a long enough stretch (the usual place), or
   * beside a stretch too short to carry it, as close as the label can read as that arrow's. Never
   * on a box or another label; in a strict search never on another arrow or on its own path's
   * other stretches. A pill over the arrowhead costs extra, so a label moves beside a short
   * arrow rather than hide where it points.
   */
  function placeLabel(text: string, path: Point[], strict: boolean): { label: EdgeLabel; cost: number } | null {
    const size = labelSize(text, textWidth);
    const ownSegments = segmentsOf({ id: '', source: '', target: '', kind: 'flow', points: path });
    let best: { label: EdgeLabel; cost: number } | null = null;
    const consider = (centre: Point, onSegment: number, cost: number) => {
      const label: EdgeLabel = { text, x: centre.x, y: centre.y, ...size };
      const rect = labelRect(label);
      if (rect.x < bounds.x || rect.y < bounds.y || rect.x + rect.width > bounds.x + bounds.width || rect.y + rect.height > bounds.y + bounds.height) return;
      if (all.some((box) => rectsOverlap(rect, box, LABEL_CLEARANCE))) return;
      if (placedLabels.some((other) => rectsOverlap(rect, other, LABEL_SPACING))) return;
      if (ownSegments.some((segment, index) => index !== onSegment && segmentHitsRect(segment.a, segment.b, rect, LABEL_TO_ARROW))) return;
      const onArrows = placedSegments.filter((segment) => segmentHitsRect(segment.a, segment.b, rect, LABEL_TO_ARROW)).length;
      if (strict && onArrows > 0) return;
      const total = cost + onArrows * 300;
      if (best === null || total < best.cost) best = { label, cost: total };
    };
    for (const [index, segment] of ownSegments.entries()) {
      const { a, b } = segment;
      const horizontal = a.y === b.y;
      const length = distance(a, b);
      const along = horizontal ? size.width : size.height;
      const last = index === ownSegments.length - 1;
      const middle = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      if (length >= along + (horizontal ? 12 : 4)) {
        const fractions = horizontal && length > size.width * 2 ? [0.5, 0.3, 0.7] : [0.5];
        for (const fraction of fractions) {
          const centre = { x: a.x + (b.x - a.x) * fraction, y: a.y + (b.y - a.y) * fraction };
          // How much room the pill leaves before the arrow's end, where its head is.
          const beforeEnd = length * (1 - fraction) - along / 2;
          const hidesHead = last && beforeEnd < ARROWHEAD_ZONE;
          consider(centre, index, Math.abs(fraction - 0.5) * 40 + (horizontal ? 0 : 25) + (hidesHead ? 150 : 0));
        }
      }
      // Beside the stretch, level with its middle: right or left of a vertical one, above or below a horizontal one.
      const offset = (horizontal ? size.height : size.width) / 2 + LABEL_BESIDE_GAP;
      for (const side of [-1, 1]) {
        consider(horizontal ? { x: middle.x, y: middle.y + side * offset } : { x: middle.x + side * offset, y: middle.y }, -1, 90);
      }
    }
    return best;
  }

  function routeWith(request: RouteRequest, strict: boolean): { edge: RoutedEdge; cost: number } | null {
    const source = rects.get(request.source);
    const target = rects.get(request.target);
    if (source === undefined || target === undefined) return null;
    // Branch and bound: port pairs in order of the least any path between them can cost (their
    // distance), so the search stops as soon as no remaining pair can beat the best route found.
    const fromPorts = SIDES.filter((side) => facesTowards(source, side, target)).flatMap((side) => ports(source, side, target));
    const toPorts = SIDES.filter((side) => facesTowards(target, side, source)).flatMap((side) => ports(target, side, source));
    const pairs: { from: Port; to: Port; bound: number }[] = [];
    for (const from of fromPorts) {
      for (const to of toPorts) {
        pairs.push({ from, to, bound: distance(from.point, to.point) + 30 * (from.offCentre + to.offCentre) });
      }
    }
    pairs.sort((a, b) => a.bound - b.bound);
    let best: { edge: RoutedEdge; cost: number } | null = null;
    for (const pair of pairs) {
      if (best !== null && pair.bound >= best.cost) break;
      const { from, to } = pair;
      for (const path of candidatePaths(from, to, lanes, bands)) {
        if (best !== null && lowerBound(path, from, to) >= best.cost) continue;
        const cost = pathCost(request, path, from, to, source, target, strict);
        if (cost === null || (best !== null && cost >= best.cost)) continue;
        let total = cost;
        let label: EdgeLabel | undefined;
        if (request.labelText !== undefined && request.labelText !== '') {
          const placedLabel = placeLabel(request.labelText, path, strict);
          if (placedLabel === null) continue;
          total += placedLabel.cost;
          label = placedLabel.label;
        }
        if (best !== null && total >= best.cost) continue;
        const edge: RoutedEdge = { id: request.id, source: request.source, target: request.target, kind: request.kind, points: path };
        if (label !== undefined) edge.label = label;
        best = { edge, cost: total };
      }
    }
    return best;
  }

  return {
    route(request) {
      return routeWith(request, true) ?? routeWith(request, false);
    },
    commit(edge) {
      placedSegments.push(...segmentsOf(edge));
      if (edge.label !== undefined) placedLabels.push(labelRect(edge.label));
      const first = edge.points[0];
      const last = edge.points[edge.points.length - 1];
      if (first !== undefined) usedPorts.set(portKey(edge.source, first), (usedPorts.get(portKey(edge.source, first)) ?? 0) + 1);
      if (last !== undefined) usedPorts.set(portKey(edge.target, last), (usedPorts.get(portKey(edge.target, last)) ?? 0) + 1);
    },
  };
}

/** A straight fallback for an arrow no shape fits (never expected with the shipped content). */
function straightEdge(request: RouteRequest, rects: ReadonlyMap<string, Rect>): RoutedEdge | null {
  const source = rects.get(request.source);
  const target = rects.get(request.target);
  if (source === undefined || target === undefined) return null;
  return {
    id: request.id,
    source: request.source,
    target: request.target,
    kind: request.kind,
    points: [
      { x: source.x + source.width, y: source.y + source.height / 2 },
      { x: target.x, y: target.y + target.height / 2 },
    ],
  };
}

/**
 * Boxes, the content's arrows ('flow') and one dashed link from every box flagged
 * `connectsToKnowledgeGraph` to whichever IT Knowledge Graph box it reaches most directly ('knowledge').
 */
export function layoutDiagram(diagram: Architecture['diagram'], textWidth?: TextWidth): DiagramLayout {
  const steps = layoutDiagramInSteps(diagram, textWidth);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * The same layout, one arrow at a time: the generator pauses after each, so a caller can spread the
 * work over several short tasks instead of one long one that would hold up clicks and typing.
 */
export function* layoutDiagramInSteps(diagram: Architecture['diagram'], textWidth: TextWidth = estimatedTextWidth): Generator<undefined, DiagramLayout> {
  const bounds = diagramBounds(diagram.components);
  const rects = new Map(diagram.components.map((component) => [component.id, nodeRect(component)]));
  const router = createRouter(rects, bounds, textWidth);
  const edges: RoutedEdge[] = [];

  // Short arrows first: they have one good route each, which long arrows can then go around.
  const centre = (id: string) => {
    const rect = rects.get(id);
    return rect === undefined ? { x: 0, y: 0 } : { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
  };
  const byLength = [...diagram.edges].sort((a, b) => distance(centre(a.from), centre(a.to)) - distance(centre(b.from), centre(b.to)));
  const routedById = new Map<string, RoutedEdge>();
  for (const edge of byLength) {
    const request: RouteRequest = { id: `flow:${edge.from}->${edge.to}`, source: edge.from, target: edge.to, kind: 'flow' };
    if (edge.label !== undefined) request.labelText = edge.label;
    const routed = router.route(request)?.edge ?? straightEdge(request, rects);
    if (routed === null) continue;
    router.commit(routed);
    routedById.set(`${edge.from}->${edge.to}`, routed);
    yield;
  }
  for (const edge of diagram.edges) {
    const routed = routedById.get(`${edge.from}->${edge.to}`);
    if (routed !== undefined) edges.push(routed);
  }

  const graphBoxes = diagram.components.filter((component) => component.phase === KNOWLEDGE_GRAPH_PHASE);
  const flagged = diagram.components.filter((component) => component.connectsToKnowledgeGraph === true && component.phase !== KNOWLEDGE_GRAPH_PHASE);
  for (const component of flagged) {
    let best: { edge: RoutedEdge; cost: number } | null = null;
    for (const box of graphBoxes) {
      const option = router.route({ id: `knowledge:${component.id}`, source: component.id, target: box.id, kind: 'knowledge' });
      if (option !== null && (best === null || option.cost < best.cost)) best = option;
    }
    if (best === null) continue;
    router.commit(best.edge);
    edges.push(best.edge);
    yield;
  }
  return { bounds, rects, edges };
}

/** An SVG path through the points with rounded corners. */
export function roundedPath(points: readonly Point[], radius = 10): string {
  const [first, ...rest] = points;
  if (first === undefined) return '';
  let path = `M ${first.x} ${first.y}`;
  for (let index = 0; index < rest.length; index++) {
    const corner = rest[index];
    const previous = index === 0 ? first : rest[index - 1];
    const next = rest[index + 1];
    if (corner === undefined || previous === undefined) continue;
    if (next === undefined) {
      path += ` L ${corner.x} ${corner.y}`;
      continue;
    }
    const r = Math.min(radius, distance(previous, corner) / 2, distance(corner, next) / 2);
    const before = towards(corner, previous, r);
    const after = towards(corner, next, r);
    path += ` L ${before.x} ${before.y} Q ${corner.x} ${corner.y} ${after.x} ${after.y}`;
  }
  return path;
}

function distance(a: Point, b: Point): number {
  return Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
}

function towards(from: Point, to: Point, length: number): Point {
  const total = distance(from, to);
  if (total === 0) return from;
  return { x: from.x + ((to.x - from.x) / total) * length, y: from.y + ((to.y - from.y) / total) * length };
}
