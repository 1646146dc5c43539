import type { DiagramComponent } from '../../../common/contract/architecture';

/**
 * Sizes of the incident-flow boxes in diagram units (the content's x/y, on a 240-unit column grid).
 * sm–lg fit a column with room for a labelled arrow beside them; xl spans two columns. Small and
 * free of React Flow, so the page can size the diagram's placeholder before the diagram chunk loads.
 */
export const NODE_WIDTHS: Readonly<Record<DiagramComponent['width'], number>> = { sm: 160, md: 200, lg: 220, xl: 440 };
export const NODE_HEIGHT = 96;
/** Room around the boxes for the arrows that run outside them. */
export const DIAGRAM_PADDING = 24;

/**
 * Font sizes of the diagram's text in diagram units: a box's title, and every smaller label (a box's
 * phase, comment count and Comment button, an arrow's label). On screen they are these times the zoom.
 */
export const DIAGRAM_FONT = { title: 18, label: 13.5 } as const;

/**
 * The least zoom the diagram opens at: titles render at 16.2 px and every label at 12.15 px, above
 * the 12 px floor. The flow wraps into two bands to fit a desktop page at this zoom or more; a
 * container too narrow even for that (a phone's) keeps it and scrolls sideways. One of ZOOM_STEPS,
 * so stepping the zoom comes back to it.
 */
export const READABLE_ZOOM = 0.9;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function nodeRect(component: Pick<DiagramComponent, 'x' | 'y' | 'width'>): Rect {
  return { x: component.x, y: component.y, width: NODE_WIDTHS[component.width], height: NODE_HEIGHT };
}

/** The area every box, arrow and label of the diagram lies in. */
export function diagramBounds(components: readonly Pick<DiagramComponent, 'x' | 'y' | 'width'>[]): Rect {
  if (components.length === 0) return { x: 0, y: 0, width: 0, height: 0 };
  const rects = components.map(nodeRect);
  const left = Math.min(...rects.map((rect) => rect.x)) - DIAGRAM_PADDING;
  const top = Math.min(...rects.map((rect) => rect.y)) - DIAGRAM_PADDING;
  const right = Math.max(...rects.map((rect) => rect.x + rect.width)) + DIAGRAM_PADDING;
  const bottom = Math.max(...rects.map((rect) => rect.y + rect.height)) + DIAGRAM_PADDING;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

export interface DiagramView {
  zoom: number;
  /** The zoom that fits the whole diagram in the container's width (never above 1:1), however small its text. */
  fitZoom: number;
  /** The zoom the diagram opens at: the fit when its text stays readable, else READABLE_ZOOM. */
  readableZoom: number;
  /** Screen size of the canvas: the whole diagram at `zoom`. */
  width: number;
  height: number;
  /** True when the canvas is wider than the container and scrolls sideways. */
  scrolls: boolean;
}

/** 'readable' (the default), 'fit' (the whole width, an overview), or a zoom the reader stepped to. */
export type ZoomChoice = 'readable' | 'fit' | number;
export const ZOOM_STEPS: readonly number[] = [0.4, 0.5, 0.6, 0.75, 0.9, 1, 1.25];

/**
 * Opens the diagram fitted to the container's width when its text stays readable that way;
 * otherwise at READABLE_ZOOM, and the container scrolls sideways. 'Fit' shows the whole width
 * whatever the text size; a zoom the reader stepped to wins over both.
 */
export function diagramView(bounds: Rect, containerWidth: number, choice: ZoomChoice = 'readable'): DiagramView {
  if (bounds.width <= 0 || containerWidth <= 0) return { zoom: 1, fitZoom: 1, readableZoom: 1, width: bounds.width, height: bounds.height, scrolls: false };
  const fitZoom = Math.min(1, containerWidth / bounds.width);
  const readableZoom = Math.max(fitZoom, READABLE_ZOOM);
  const zoom = choice === 'readable' ? readableZoom : choice === 'fit' ? fitZoom : choice;
  const width = Math.floor(bounds.width * zoom);
  return { zoom, fitZoom, readableZoom, width, height: Math.ceil(bounds.height * zoom), scrolls: width > containerWidth };
}

/** The next zoom step in `direction` (+1 in, -1 out) from `zoom`, or null at either end. */
export function nextZoom(zoom: number, direction: 1 | -1): number | null {
  const steps = direction > 0 ? ZOOM_STEPS.filter((step) => step > zoom + 0.01) : ZOOM_STEPS.filter((step) => step < zoom - 0.01).reverse();
  return steps[0] ?? null;
}
