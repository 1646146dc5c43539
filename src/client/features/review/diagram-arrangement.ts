import type { Architecture, DiagramComponent } from '../../../common/contract/architecture';
import { diagramBounds, NODE_HEIGHT, NODE_WIDTHS, READABLE_ZOOM } from './diagram-geometry';

/**
 * Wraps the incident flow into two bands when one row would not fit the page at a readable size.
 * The content lays the flow out in one long row, a 240-unit column per phase, with the Connection
 * Hub on a row above and the IT Knowledge Graph on a row below; at a readable size that row is
 * about twice as wide as a desktop page. Wrapped, the first half of the phases (whole columns)
 * keeps its place under the Connection Hub, the IT Knowledge Graph row comes next, and the second
 * half of the phases goes under it, moved to the left edge: both bands read left to right, every
 * box keeps its row within its phase, and the boxes that read and write the knowledge graph sit
 * right above or below it. The arrows from the end of the first band to the start of the second
 * are routed like any other. Small and free of React Flow, so the page can size the diagram before
 * the diagram chunk loads.
 */

type Diagram = Architecture['diagram'];
export type Bands = 1 | 2;

const HUB_PHASE: DiagramComponent['phase'] = 'Connection Hub';
const GRAPH_PHASE: DiagramComponent['phase'] = 'IT Knowledge Graph';
/** Room between a panel row and a band of the flow: the content's own, for the arrows and their labels. */
const ROW_GAP = 84;
/** The least room kept between two panels that share a row. */
const PANEL_GAP = 40;

const wrapped = new WeakMap<Diagram, Diagram>();

/**
 * The diagram as the page draws it: the content's own layout in one band, or wrapped into two.
 * The same object every time for the same diagram, so a layout routed for it is found again.
 */
export function arrangeDiagram(diagram: Diagram, bands: Bands): Diagram {
  if (bands === 1) return diagram;
  let result = wrapped.get(diagram);
  if (result === undefined) {
    result = { ...diagram, components: wrapInTwo(diagram.components, diagram.edges) };
    wrapped.set(diagram, result);
  }
  return result;
}

/** One band when the content's layout fits `containerWidth` pixels at READABLE_ZOOM, else two. */
export function bandsToFit(diagram: Diagram, containerWidth: number): Bands {
  return diagramBounds(diagram.components).width * READABLE_ZOOM <= containerWidth ? 1 : 2;
}

/**
 * Where the second band starts: at the middle column, or the one after it for an odd count,
 * whichever fewer arrows cross (each crossing arrow has to wrap round to the next band); the
 * longer first band on a tie.
 */
function splitColumn(flow: readonly DiagramComponent[], edges: Diagram['edges']): number {
  const columns = [...new Set(flow.map((component) => component.x))].sort((a, b) => a - b);
  const xOf = new Map(flow.map((component) => [component.id, component.x]));
  const wrapping = (start: number) =>
    edges.filter((edge) => {
      const from = xOf.get(edge.from);
      const to = xOf.get(edge.to);
      return from !== undefined && to !== undefined && from < start !== to < start;
    }).length;
  const candidates = [...new Set([columns[Math.ceil(columns.length / 2)], columns[Math.floor(columns.length / 2)]])].filter((start) => start !== undefined);
  return candidates.reduce((best, start) => (wrapping(start) < wrapping(best) ? start : best), candidates[0] ?? Infinity);
}

function wrapInTwo(components: readonly DiagramComponent[], edges: Diagram['edges']): DiagramComponent[] {
  const isPanel = (component: DiagramComponent) => component.phase === HUB_PHASE || component.phase === GRAPH_PHASE;
  const flow = components.filter((component) => !isPanel(component));
  if (flow.length === 0) return [...components];
  const secondStart = splitColumn(flow, edges);
  const startOf = (x: number) => (x >= secondStart ? secondStart : 0);

  const flowTop = Math.min(...flow.map((component) => component.y));
  const flowBottom = Math.max(...flow.map((component) => component.y + NODE_HEIGHT));
  const hasGraph = components.some((component) => component.phase === GRAPH_PHASE);
  const graphY = flowBottom + ROW_GAP;
  const secondTop = hasGraph ? graphY + NODE_HEIGHT + ROW_GAP : flowBottom + ROW_GAP;

  const placed = new Map<string, { x: number; y: number }>();
  for (const component of flow) {
    const second = component.x >= secondStart;
    placed.set(component.id, { x: component.x - startOf(component.x), y: second ? component.y - flowTop + secondTop : component.y });
  }
  // The panels keep their place along the band their column is in, inside the width of the wider band.
  const width = Math.max(...flow.map((component) => (placed.get(component.id)?.x ?? 0) + NODE_WIDTHS[component.width]));
  for (const [phase, y] of [
    [HUB_PHASE, flowTop - ROW_GAP - NODE_HEIGHT],
    [GRAPH_PHASE, graphY],
  ] as const) {
    const row = components
      .filter((component) => component.phase === phase)
      .map((component) => ({ component, x: Math.max(0, Math.min(component.x - startOf(component.x), width - NODE_WIDTHS[component.width])) }))
      .sort((a, b) => a.x - b.x);
    let end = -Infinity;
    for (const { component, x } of row) {
      const left = Math.max(x, end + PANEL_GAP);
      placed.set(component.id, { x: left, y });
      end = left + NODE_WIDTHS[component.width];
    }
  }
  return components.map((component) => ({ ...component, ...placed.get(component.id) }));
}
