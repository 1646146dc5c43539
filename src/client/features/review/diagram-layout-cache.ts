import type { Architecture } from '../../../common/contract/architecture';
import { diagramBounds, nodeRect } from './diagram-geometry';
import { LABEL_FONT, layoutDiagramInSteps, type DiagramLayout, type EdgeLabel, type Point, type RoutedEdge, type TextWidth } from './diagram-layout';

/**
 * Routing the arrows costs tens of milliseconds of main-thread time on a first visit (much more on
 * a slow machine), and the result depends on nothing but the diagram. So the first time it runs in
 * short slices after the boxes are on screen, and the result is kept per diagram object in memory
 * and in localStorage, keyed by a fingerprint of the diagram, the router version and the widths
 * of the arrow labels in this browser's font (the labels' pills are sized to their text), so a
 * returning reviewer's page draws the arrows at once. The stored value is only geometry, nothing
 * about the member.
 */
const STORAGE_KEY = 'review:diagram-layout';
/** Bump whenever diagram-layout.ts routes differently, so stored layouts of the old router are dropped. */
const ROUTER_VERSION = 5;

const inMemory = new WeakMap<Architecture['diagram'], DiagramLayout>();

/**
 * The width of a label's text as this browser draws it in the diagram's font, from a canvas;
 * undefined where there is no canvas to measure with (the router then estimates).
 */
function measuredTextWidth(): TextWidth | undefined {
  if (typeof document === 'undefined') return undefined;
  let canvas: CanvasRenderingContext2D | null;
  try {
    canvas = document.createElement('canvas').getContext('2d');
  } catch {
    return undefined;
  }
  if (canvas === null || typeof canvas.measureText !== 'function') return undefined;
  canvas.font = `${LABEL_FONT.weight} ${LABEL_FONT.size}px ${getComputedStyle(document.body).fontFamily}`;
  if (!(canvas.measureText('M').width > 0)) return undefined;
  const widths = new Map<string, number>();
  return (text) => {
    let width = widths.get(text);
    if (width === undefined) {
      // Rounded up to a whole unit, so the fingerprint does not change with sub-pixel noise.
      width = Math.ceil(canvas.measureText(text).width);
      widths.set(text, width);
    }
    return width;
  };
}

/** FNV-1a over the diagram's JSON and its label widths: a cheap fingerprint, not a security measure. */
function fingerprint(diagram: Architecture['diagram'], textWidth: TextWidth | undefined): string {
  const widths = textWidth === undefined ? 'estimated' : diagram.edges.map((edge) => (edge.label === undefined ? '' : textWidth(edge.label))).join(',');
  const text = `${ROUTER_VERSION}:${widths}:${JSON.stringify(diagram)}`;
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${hash.toString(16)}:${text.length}`;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function isPoint(value: unknown): value is Point {
  return typeof value === 'object' && value !== null && 'x' in value && 'y' in value && isNumber(value.x) && isNumber(value.y);
}

function isLabel(value: unknown): value is EdgeLabel {
  return (
    typeof value === 'object' &&
    value !== null &&
    'text' in value &&
    typeof value.text === 'string' &&
    isPoint(value) &&
    'width' in value &&
    'height' in value &&
    isNumber(value.width) &&
    isNumber(value.height)
  );
}

function isRoutedEdge(value: unknown): value is RoutedEdge {
  if (typeof value !== 'object' || value === null) return false;
  if (!('id' in value) || !('source' in value) || !('target' in value) || !('kind' in value) || !('points' in value)) return false;
  return (
    typeof value.id === 'string' &&
    typeof value.source === 'string' &&
    typeof value.target === 'string' &&
    (value.kind === 'flow' || value.kind === 'knowledge') &&
    Array.isArray(value.points) &&
    value.points.every(isPoint) &&
    (!('label' in value) || value.label === undefined || isLabel(value.label))
  );
}

function readStored(key: string): RoutedEdge[] | null {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (raw === null) return null;
    const stored: unknown = JSON.parse(raw);
    if (typeof stored !== 'object' || stored === null || !('key' in stored) || !('edges' in stored)) return null;
    if (stored.key !== key || !Array.isArray(stored.edges) || !stored.edges.every(isRoutedEdge)) return null;
    return stored.edges;
  } catch {
    // Storage disabled or corrupt: route afresh.
    return null;
  }
}

function store(key: string, edges: readonly RoutedEdge[]): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify({ key, edges }));
  } catch {
    // Storage full or disabled: the layout is simply computed again next time.
  }
}

/** The diagram's layout if it was computed before (this session, or stored from an earlier visit). */
export function knownDiagramLayout(diagram: Architecture['diagram']): DiagramLayout | undefined {
  const remembered = inMemory.get(diagram);
  if (remembered !== undefined) return remembered;
  const edges = readStored(fingerprint(diagram, measuredTextWidth()));
  if (edges === null) return undefined;
  const layout: DiagramLayout = {
    bounds: diagramBounds(diagram.components),
    rects: new Map(diagram.components.map((component) => [component.id, nodeRect(component)])),
    edges,
  };
  inMemory.set(diagram, layout);
  return layout;
}

/** Any slice of routing work yields after about this long, so input is never held up for more. */
const SLICE_MS = 8;

/**
 * Computes the layout in slices of a few milliseconds between other work, then hands it over and
 * stores it. Returns a function that stops the work (the diagram went away or changed).
 */
export function computeDiagramLayout(diagram: Architecture['diagram'], onDone: (layout: DiagramLayout) => void): () => void {
  const textWidth = measuredTextWidth();
  const key = fingerprint(diagram, textWidth);
  const steps = layoutDiagramInSteps(diagram, textWidth);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const work = () => {
    const until = performance.now() + SLICE_MS;
    for (;;) {
      const step = steps.next();
      if (step.done === true) {
        inMemory.set(diagram, step.value);
        store(key, step.value.edges);
        onDone(step.value);
        return;
      }
      if (performance.now() >= until) break;
    }
    timer = setTimeout(work, 0);
  };
  timer = setTimeout(work, 0);
  return () => {
    if (timer !== undefined) clearTimeout(timer);
  };
}
