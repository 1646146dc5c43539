import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { architecture } from '../src/server/content/architecture.js';
import { accessibilityViolations } from './axe.js';
import { launchBrowser, newPage, SCREENSHOT_DIR, seedMember, signIn, startServer, type RunningServer } from './harness.js';

/*
 * The incident-flow diagram must be readable as it first appears, without the reader zooming:
 * every text in it (box titles, phases, arrow labels, the Comment buttons, anything else) at 12 px
 * or more, and the comment counts at 11 px or more, as rendered: the CSS font size times the scale
 * the diagram's viewport transform applies. On a 1440 px desktop the whole flow fits the page's
 * width at that size: every box inside the diagram's frame, nothing scrolled sideways. And nothing
 * may sit on anything else: no label on an arrow or a box, no box on another, no arrow through a
 * box it does not start or end at.
 *
 * Measured in the page (browser-side code goes to page.evaluate as strings: this file is
 * type-checked for Node, without the DOM library). The page's CSP forbids the eval that
 * waitForFunction would need, so waiting is polling with evaluate, for a state, never for a time.
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const MEMBER = { name: 'Lena Legible', pin: '8631' };

/** Every text in the diagram, a comment count's excepted. */
const MIN_TEXT_PX = 12;
const MIN_COUNT_PX = 11;
/** How much of an arrow's end its head covers, in diagram units (a pill there would hide it). */
const ARROWHEAD_UNITS = 10;

const { diagram } = architecture;
const flaggedLinks = diagram.components.filter((component) => component.connectsToKnowledgeGraph === true && component.phase !== 'IT Knowledge Graph').length;
const TEXTS = {
  titles: diagram.components.map((component) => component.title),
  phases: [...new Set(diagram.components.map((component) => component.phase.toLowerCase()))],
  edgeLabels: diagram.edges.flatMap((edge) => (edge.label === undefined ? [] : [edge.label])),
};

interface Measurement {
  zoom: number;
  /** Every text node in the diagram, with its rendered size; `count` for a comment count's. */
  texts: { text: string; px: number; count: boolean }[];
  titles: { text: string; px: number }[];
  labels: { kind: 'phase' | 'edge' | 'count'; text: string; px: number }[];
  /** Every overlap found, as readable lines. */
  overlaps: string[];
  counts: { nodes: number; edges: number; edgeLabels: number; pathsSampled: number; pointsSampled: number };
  /** The arrow labels drawn on their own arrow's line (whose own arrow is exempt from the overlap check). */
  onOwnLine: string[];
  scroller: { scrollWidth: number; clientWidth: number; tabIndex: number; role: string | null; label: string | null } | null;
  /** Screen rectangles, rounded: the diagram's visible frame (the scroller's client area), the union of its boxes, and the main column's content box. */
  frame: ScreenRect;
  boxes: ScreenRect;
  content: ScreenRect;
  /** The boxes and arrow labels not wholly inside the frame. */
  outside: string[];
  pageOverflow: number;
}

interface ScreenRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Everything the diagram draws, as the page has it now: the diagram's text (found by the content's
 * own titles, phases and arrow labels, so the test reads any markup) with its rendered size, and
 * every overlap between labels, arrows and boxes in screen pixels.
 *
 * - Rendered size: getComputedStyle(element).fontSize × the scale of every transform on the way up
 *   (the diagram viewport's `scale(zoom)` in practice), cross-checked against the viewport's own
 *   transform.
 * - A box is a `.react-flow__node`; a phase label is the element whose text is the box's phase; a
 *   title the one whose text is the box's title; an arrow label the element whose text is one of
 *   the content's arrow labels, and its box the label's pill: the text's parent (the group holding
 *   the pill and the text in SVG, the pill itself in HTML).
 * - Arrows: every `.react-flow__edge path.react-flow__edge-path`, sampled every 2 px of its length
 *   with getPointAtLength and mapped to the screen with getScreenCTM. A point inside a label's box
 *   (grown by half the stroke and 1 px) is an arrow on a label. The one exception: an arrow
 *   label's own arrow when the label's centre is on that arrow's line, because the label is
 *   designed to sit on it there, as a pill on the line; a label beside its arrow is checked
 *   against it like any other. Even on its own line, a pill may not cover the arrow's head (its
 *   last ARROWHEAD_UNITS diagram units), or the arrow would no longer show where it points. A
 *   point more than
 *   1 px inside a box the arrow neither starts nor ends at is an arrow through a box.
 */
function measureScript(texts: typeof TEXTS): string {
  return `(() => {
    const texts = ${JSON.stringify(texts)};
    const root = document.querySelector('.react-flow');
    if (root === null) return null;
    const viewport = root.querySelector('.react-flow__viewport');
    const viewportMatrix = new DOMMatrix(getComputedStyle(viewport).transform);
    const zoom = Math.hypot(viewportMatrix.a, viewportMatrix.b);
    const scaleOf = (element) => {
      let scale = 1;
      for (let current = element; current !== null && current !== document.documentElement; current = current.parentElement) {
        const transform = getComputedStyle(current).transform;
        if (transform !== '' && transform !== 'none') {
          const matrix = new DOMMatrix(transform);
          scale *= Math.hypot(matrix.a, matrix.b);
        }
      }
      return scale;
    };
    const px = (element) => Math.round(parseFloat(getComputedStyle(element).fontSize) * scaleOf(element) * 100) / 100;
    const box = (rect) => ({ left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom });
    const intersects = (a, b, slack = 0.5) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > slack && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > slack;
    const contains = (rect, point, inset = 0) => point.x > rect.left + inset && point.x < rect.right - inset && point.y > rect.top + inset && point.y < rect.bottom - inset;
    const grow = (rect, by) => ({ left: rect.left - by, top: rect.top - by, right: rect.right + by, bottom: rect.bottom + by });

    const nodes = [...root.querySelectorAll('.react-flow__node')].map((node) => ({ id: node.getAttribute('data-id'), rect: box(node.getBoundingClientRect()) }));
    const titles = [];
    const labels = [];
    const labelBoxes = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text !== null; text = walker.nextNode()) {
      const value = text.textContent.trim();
      const element = text.parentElement;
      if (value === '' || element === null) continue;
      const node = element.closest('.react-flow__node');
      const edge = element.closest('.react-flow__edge');
      if (node !== null && texts.titles.includes(value)) {
        titles.push({ text: value, px: px(element) });
      } else if (node !== null && texts.phases.includes(value.toLowerCase())) {
        labels.push({ kind: 'phase', text: value, px: px(element) });
        labelBoxes.push({ name: 'phase label "' + value + '" of ' + node.getAttribute('data-id'), rect: box(element.getBoundingClientRect()), node: node.getAttribute('data-id'), edge: null });
      } else if (texts.edgeLabels.includes(value)) {
        const edgeId = edge === null ? element.closest('[data-edge-id]')?.getAttribute('data-edge-id') ?? null : edge.getAttribute('data-id');
        labels.push({ kind: 'edge', text: value, px: px(element) });
        labelBoxes.push({ name: 'arrow label "' + value + '"', rect: box(element.parentElement.getBoundingClientRect()), node: null, edge: edgeId });
      }
    }
    for (const count of root.querySelectorAll('.react-flow__node [data-comment-count]')) {
      labels.push({ kind: 'count', text: count.textContent.trim(), px: px(count) });
    }
    // Every text node, whatever its markup: what a reader sees and what a screen reader reads.
    const allTexts = [];
    const everything = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let text = everything.nextNode(); text !== null; text = everything.nextNode()) {
      const value = text.textContent.trim();
      if (value === '' || text.parentElement === null) continue;
      allTexts.push({ text: value, px: px(text.parentElement), count: text.parentElement.closest('[data-comment-count]') !== null });
    }

    const overlaps = [];
    for (let i = 0; i < nodes.length; i++) {
      for (let j = i + 1; j < nodes.length; j++) {
        if (intersects(nodes[i].rect, nodes[j].rect)) overlaps.push('box ' + nodes[i].id + ' overlaps box ' + nodes[j].id);
      }
    }
    for (let i = 0; i < labelBoxes.length; i++) {
      const label = labelBoxes[i];
      for (const node of nodes) {
        if (node.id === label.node) continue;
        if (intersects(grow(label.rect, 1), node.rect)) overlaps.push(label.name + ' overlaps box ' + node.id);
      }
      for (let j = i + 1; j < labelBoxes.length; j++) {
        if (intersects(grow(label.rect, 1), labelBoxes[j].rect)) overlaps.push(label.name + ' overlaps ' + labelBoxes[j].name);
      }
    }
    // Every arrow, sampled every 2 diagram units along its path, in screen pixels.
    const arrows = [...root.querySelectorAll('.react-flow__edge')].flatMap((edge) => {
      const path = edge.querySelector('path.react-flow__edge-path');
      if (path === null) return [];
      const ctm = path.getScreenCTM();
      const length = path.getTotalLength();
      const points = [];
      for (let along = 0; along <= length; along += 2) points.push(path.getPointAtLength(along));
      points.push(path.getPointAtLength(length));
      // The arrowhead's stretch: the last ${ARROWHEAD_UNITS} diagram units of the line.
      const head = [];
      for (let along = Math.max(0, length - ${ARROWHEAD_UNITS}); along <= length; along += 1) head.push(path.getPointAtLength(along));
      const toScreen = (point) => new DOMPoint(point.x, point.y).matrixTransform(ctm);
      return [{
        id: edge.getAttribute('data-id'),
        halfStroke: (parseFloat(getComputedStyle(path).strokeWidth) || 2) * zoom / 2,
        points: points.map(toScreen),
        head: edge.querySelector('path[marker-end]') === null ? [] : head.map(toScreen),
      }];
    });
    // An arrow label sits on its own arrow by design when its centre is on that arrow's line;
    // only then is its own arrow exempt (a label placed beside its arrow must keep clear of it too).
    for (const label of labelBoxes) {
      const own = arrows.find((arrow) => arrow.id === label.edge);
      const centre = { x: (label.rect.left + label.rect.right) / 2, y: (label.rect.top + label.rect.bottom) / 2 };
      label.onOwnLine = own !== undefined && own.points.some((point) => Math.hypot(point.x - centre.x, point.y - centre.y) < 2);
    }
    for (const label of labelBoxes) {
      if (!label.onOwnLine) continue;
      const own = arrows.find((arrow) => arrow.id === label.edge);
      const hit = own.head.find((point) => contains(label.rect, point));
      if (hit !== undefined) overlaps.push(label.name + ' hides the head of its own arrow ' + own.id + ' at ' + Math.round(hit.x) + ',' + Math.round(hit.y));
    }
    for (const arrow of arrows) {
      const { id, points, halfStroke } = arrow;
      // The ends of an arrow: the boxes it touches (its first and last points lie on their borders).
      const touching = new Set(nodes.filter((node) => contains(grow(node.rect, 2), points[0]) || contains(grow(node.rect, 2), points[points.length - 1])).map((node) => node.id));
      for (const label of labelBoxes) {
        if (label.edge === id && label.onOwnLine) continue;
        const hit = points.find((point) => contains(grow(label.rect, halfStroke + 1), point));
        if (hit !== undefined) overlaps.push('arrow ' + id + ' runs over ' + label.name + ' at ' + Math.round(hit.x) + ',' + Math.round(hit.y));
      }
      for (const node of nodes) {
        if (touching.has(node.id)) continue;
        const hit = points.find((point) => contains(node.rect, point, 1));
        if (hit !== undefined) overlaps.push('arrow ' + id + ' runs through box ' + node.id + ' at ' + Math.round(hit.x) + ',' + Math.round(hit.y));
      }
    }
    const pathsSampled = arrows.length;
    const pointsSampled = arrows.reduce((sum, arrow) => sum + arrow.points.length, 0);
    const onOwnLine = labelBoxes.filter((label) => label.onOwnLine).map((label) => label.name);

    const scrollerElement = root.closest('[data-diagram-scroller]') ?? root.parentElement?.parentElement ?? null;
    const rounded = (rect) => ({ left: Math.round(rect.left), top: Math.round(rect.top), right: Math.round(rect.right), bottom: Math.round(rect.bottom) });
    const outer = scrollerElement.getBoundingClientRect();
    const frame = {
      left: outer.left + scrollerElement.clientLeft,
      top: outer.top + scrollerElement.clientTop,
      right: outer.left + scrollerElement.clientLeft + scrollerElement.clientWidth,
      bottom: outer.top + scrollerElement.clientTop + scrollerElement.clientHeight,
    };
    const inFrame = (rect) => rect.left >= frame.left - 0.5 && rect.right <= frame.right + 0.5 && rect.top >= frame.top - 0.5 && rect.bottom <= frame.bottom + 0.5;
    const outside = [
      ...nodes.filter((node) => !inFrame(node.rect)).map((node) => 'box ' + node.id),
      ...labelBoxes.filter((label) => label.edge !== null && !inFrame(label.rect)).map((label) => label.name),
    ];
    const boxes = nodes.length === 0 ? frame : {
      left: Math.min(...nodes.map((node) => node.rect.left)),
      top: Math.min(...nodes.map((node) => node.rect.top)),
      right: Math.max(...nodes.map((node) => node.rect.right)),
      bottom: Math.max(...nodes.map((node) => node.rect.bottom)),
    };
    const main = document.querySelector('main');
    const mainStyle = getComputedStyle(main);
    const mainRect = main.getBoundingClientRect();
    const content = {
      left: mainRect.left + parseFloat(mainStyle.paddingLeft),
      top: mainRect.top + parseFloat(mainStyle.paddingTop),
      right: mainRect.right - parseFloat(mainStyle.paddingRight),
      bottom: mainRect.bottom - parseFloat(mainStyle.paddingBottom),
    };
    const scroller = scrollerElement === null ? null : {
      scrollWidth: scrollerElement.scrollWidth,
      clientWidth: scrollerElement.clientWidth,
      tabIndex: scrollerElement.tabIndex,
      role: scrollerElement.getAttribute('role'),
      label: scrollerElement.getAttribute('aria-label'),
    };
    return {
      zoom,
      texts: allTexts,
      frame: rounded(frame),
      boxes: rounded(boxes),
      content: rounded(content),
      outside,
      titles,
      labels,
      overlaps,
      counts: { nodes: nodes.length, edges: root.querySelectorAll('.react-flow__edge').length, edgeLabels: labelBoxes.filter((label) => label.edge !== null).length, pathsSampled, pointsSampled },
      onOwnLine,
      scroller,
      pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  })()`;
}

/** Where every box, arrow and arrow label is on screen: the state the test waits to stop changing. */
const SNAPSHOT = `(() => {
  const root = document.querySelector('.react-flow');
  if (root === null) return null;
  const parts = [...root.querySelectorAll('.react-flow__node, .react-flow__edge, .react-flow__edge path, .react-flow__edge text')];
  const visible = parts.every((part) => getComputedStyle(part).visibility !== 'hidden');
  return JSON.stringify({
    nodes: root.querySelectorAll('.react-flow__node').length,
    edges: root.querySelectorAll('.react-flow__edge').length,
    visible,
    rects: parts.map((part) => { const rect = part.getBoundingClientRect(); return [rect.x, rect.y, rect.width, rect.height].map(Math.round).join(','); }),
  });
})()`;

/**
 * Waits until the whole diagram is drawn (every box, every arrow once routed, every label measured)
 * and holds still: the same geometry on three reads in a row, a frame or more apart.
 */
async function waitForStableDiagram(page: Page): Promise<void> {
  const expectedEdges = diagram.edges.length + flaggedLinks;
  let previous: string | null = null;
  let same = 0;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const snapshot = await page.evaluate<string | null>(SNAPSHOT);
    const parsed = snapshot === null ? null : (JSON.parse(snapshot) as { nodes: number; edges: number; visible: boolean });
    const complete = parsed !== null && parsed.nodes === diagram.components.length && parsed.edges === expectedEdges && parsed.visible;
    same = complete && snapshot === previous ? same + 1 : 0;
    previous = snapshot;
    if (same >= 2) return;
    if (Date.now() > deadline) throw new Error(`the diagram did not settle: ${snapshot ?? 'not rendered'}`);
    // One animation frame between reads: the next read sees the next rendered state.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  }
}

async function measure(page: Page): Promise<Measurement> {
  const measured = await page.evaluate<Measurement | null>(measureScript(TEXTS));
  if (measured === null) throw new Error('no diagram on the page');
  return measured;
}

const SCROLL_LEFT = `document.querySelector('[data-diagram-scroller]')?.scrollLeft ?? -1`;

/** The opacity of the fade-and-button on one side of the diagram (the button shows only where there is more). */
function sideOpacity(page: Page, side: 'left' | 'right'): Promise<string> {
  return page.evaluate<string>(`getComputedStyle(document.querySelector('button[title="Scroll ${side}"]').parentElement).opacity`);
}

/**
 * The diagram is wider than its box and says so: a labelled region that takes focus and scrolls
 * with the arrow keys, a hint under it, and a button on the side there is more of, which scrolls.
 */
async function expectScrollsSideways(page: Page, device: 'desktop' | 'phone'): Promise<void> {
  const region = page.getByRole('region', { name: 'Incident flow diagram, scrolls sideways' });
  await region.waitFor();
  expect(await region.getAttribute('tabindex')).toBe('0');
  const hintId = await region.getAttribute('aria-describedby');
  expect(await page.locator(`[id="${hintId ?? ''}"]`).innerText()).toMatch(device === 'phone' ? /Swipe sideways/ : /scroll sideways/);
  await expect.poll(() => sideOpacity(page, 'right')).toBe('1');
  expect(await sideOpacity(page, 'left')).toBe('0');

  // The keyboard: focus the region, and the arrow keys scroll it.
  await region.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => page.evaluate<number>(SCROLL_LEFT)).toBeGreaterThan(0);
  await expect.poll(() => sideOpacity(page, 'left')).toBe('1');
  await page.evaluate(`document.querySelector('[data-diagram-scroller]').scrollLeft = 0`);
  await expect.poll(() => sideOpacity(page, 'left')).toBe('0');

  // The button on the right scrolls a good part of a screen.
  const right = page.locator('button[title="Scroll right"]');
  if (device === 'phone') await right.tap();
  else await right.click();
  await expect.poll(() => page.evaluate<number>(SCROLL_LEFT)).toBeGreaterThan(100);
}

function smallest(items: readonly { px: number }[]): number {
  return Math.min(...items.map((item) => item.px));
}

function smallestText(texts: Measurement['texts'], count: boolean): string {
  const chosen = texts.filter((entry) => entry.count === count);
  const least = chosen.reduce<Measurement['texts'][number] | undefined>((best, entry) => (best === undefined || entry.px < best.px ? entry : best), undefined);
  return least === undefined ? 'none' : `${least.px} px ("${least.text}")`;
}

const describeRect = (rect: ScreenRect) => `x ${rect.left}–${rect.right}, y ${rect.top}–${rect.bottom} (${rect.right - rect.left} × ${rect.bottom - rect.top})`;

function report(label: string, measured: Measurement): void {
  const byKind = (kind: string) => measured.labels.filter((entry) => entry.kind === kind);
  console.log(
    `[diagram-legibility] ${label}: zoom ${measured.zoom.toFixed(3)}; smallest text ${smallestText(measured.texts, false)} of ${measured.texts.length} texts, ` +
      `smallest comment count ${smallestText(measured.texts, true)}; smallest title ${smallest(measured.titles)} px, ` +
      `phase label ${smallest(byKind('phase'))} px, arrow label ${smallest(byKind('edge'))} px; ` +
      `boxes ${describeRect(measured.boxes)} in the frame ${describeRect(measured.frame)}, page content x ${measured.content.left}–${measured.content.right}; ` +
      `${measured.outside.length} outside the frame; ` +
      `${measured.counts.nodes} boxes, ${measured.counts.edges} arrows (${measured.counts.pointsSampled} points sampled), ${measured.counts.edgeLabels} arrow labels ` +
      `(${measured.onOwnLine.length} on their own arrow's line); ` +
      `${measured.overlaps.length} overlaps${measured.overlaps.length > 0 ? `:\n  ${measured.overlaps.join('\n  ')}` : ''}; ` +
      `scroller ${JSON.stringify(measured.scroller)}`,
  );
}

/** One frame or two: the next read sees the next rendered state. */
const NEXT_FRAME = 'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))';

const REVEAL_BUTTON = `[...document.querySelectorAll('button')].find((button) => button.textContent.trim() === 'Reveal next step')`;

interface Placement {
  box: ScreenRect | null;
  button: ScreenRect | null;
  /**
   * Whether the box can be seen: its middle and the points 8 px inside its corners are on screen
   * and on top there (not under a bar, not scrolled out of the diagram's frame). Across, only the
   * part of the frame the box spans is sampled: a box wider than the frame is seen as far as it can be.
   */
  seen: boolean;
  /** Whether the button itself is on top at its middle. */
  buttonSeen: boolean;
  viewport: { width: number; height: number };
}

function placementScript(id: string): string {
  return `(() => {
    const rect = (element) => {
      if (element === null || element === undefined) return null;
      const r = element.getBoundingClientRect();
      return { left: Math.round(r.left), top: Math.round(r.top), right: Math.round(r.right), bottom: Math.round(r.bottom) };
    };
    const onTop = (element, x, y) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && element.contains(hit);
    };
    const node = document.querySelector('.react-flow__node[data-id="${id}"]');
    const button = ${REVEAL_BUTTON};
    const scroller = document.querySelector('[data-diagram-scroller]');
    const outer = scroller.getBoundingClientRect();
    let seen = false;
    if (node !== null) {
      const box = node.getBoundingClientRect();
      const left = Math.max(box.left, outer.left + scroller.clientLeft) + 8;
      const right = Math.min(box.right, outer.left + scroller.clientLeft + scroller.clientWidth) - 8;
      const points = [[(left + right) / 2, (box.top + box.bottom) / 2], [left, box.top + 8], [right, box.top + 8], [left, box.bottom - 8], [right, box.bottom - 8]];
      seen = right > left && points.every(([x, y]) => onTop(node, x, y));
    }
    const buttonBox = button === undefined ? null : button.getBoundingClientRect();
    return JSON.stringify({
      box: rect(node),
      button: rect(button),
      seen,
      buttonSeen: buttonBox !== null && onTop(button, (buttonBox.left + buttonBox.right) / 2, (buttonBox.top + buttonBox.bottom) / 2),
      viewport: { width: window.innerWidth, height: window.innerHeight },
    });
  })()`;
}

/** Where a box, the Reveal next step button and the step bar are once the box is drawn and the page holds still (it may scroll smoothly). */
async function steadyPlacement(page: Page, id: string): Promise<Placement> {
  let previous: string | null = null;
  let same = 0;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const current = await page.evaluate<string>(placementScript(id));
    const placement = JSON.parse(current) as Placement;
    same = placement.box !== null && current === previous ? same + 1 : 0;
    previous = current;
    if (same >= 2) return placement;
    if (Date.now() > deadline) throw new Error(`box ${id} did not settle: ${current}`);
    await page.evaluate(NEXT_FRAME);
  }
}

const inViewport = (rect: ScreenRect, viewport: Placement['viewport']) => rect.left >= 0 && rect.top >= 0 && rect.right <= viewport.width && rect.bottom <= viewport.height;

/**
 * Step by step with the keyboard, from a button the reader has just scrolled to at the bottom of
 * the window (a click would have Playwright scroll the button into view first; the page alone must
 * do it): after every press, the box it revealed and the button are both on screen and seen.
 */
async function revealEveryStep(page: Page, label: string): Promise<void> {
  const section = page.getByRole('region', { name: 'Incident Management Flow' });
  await section.getByRole('group', { name: 'Diagram display' }).getByRole('button', { name: 'Reveal Step-by-Step' }).click();
  const next = section.getByRole('button', { name: 'Reveal next step' });
  await page.evaluate(`${REVEAL_BUTTON}.scrollIntoView({ block: 'end' })`);
  await next.focus();
  for (const [index, id] of diagram.stepOrder.entries()) {
    await page.keyboard.press('Enter');
    const { box, button, seen, buttonSeen, viewport } = await steadyPlacement(page, id);
    const step = `${label}, step ${index + 1}: box ${id} ${JSON.stringify(box)}, button ${JSON.stringify(button)}`;
    if (box === null || button === null) throw new Error(`${step}: not on the page`);
    expect(inViewport(button, viewport) && buttonSeen, `${step}: the button is on screen`).toBe(true);
    expect(seen, `${step}: the box is on screen and seen`).toBe(true);
    if (index === 9) await page.screenshot({ path: path.join(SCREENSHOT_DIR, `diagram-reveal-${label}.png`), animations: 'disabled' });
  }
  expect(await next.getAttribute('aria-disabled')).toBe('true');
}

function withoutExpected401(consoleErrors: readonly string[]): string[] {
  return consoleErrors.filter((line) => !line.includes('status of 401 (Unauthorized)'));
}

describe('incident-flow diagram legibility', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await seedMember(server, MEMBER.name, { pin: MEMBER.pin });
  });

  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  async function openReview(viewport: { width: number; height: number }, mobile: boolean, { scroll = true }: { scroll?: boolean } = {}) {
    const opened = await newPage(browser, { viewport, mobile });
    await signIn(opened.page, server, { ...MEMBER, path: '/' });
    const section = opened.page.getByRole('region', { name: 'Incident Management Flow' });
    await section.waitFor();
    if (scroll) {
      await section.scrollIntoViewIfNeeded();
      await waitForStableDiagram(opened.page);
    }
    return { ...opened, section };
  }

  function expectLegibleAndClear(measured: Measurement) {
    expect(measured.counts.nodes).toBe(diagram.components.length);
    expect(measured.titles).toHaveLength(diagram.components.length);
    expect(measured.labels.filter((entry) => entry.kind === 'phase')).toHaveLength(diagram.components.length);
    expect(measured.labels.filter((entry) => entry.kind === 'count')).toHaveLength(diagram.components.length);
    expect(measured.counts.edgeLabels).toBe(TEXTS.edgeLabels.length);
    for (const text of measured.texts) expect(text.px, `"${text.text}"`).toBeGreaterThanOrEqual(text.count ? MIN_COUNT_PX : MIN_TEXT_PX);
    expect(measured.texts.filter((entry) => entry.count).length).toBeGreaterThanOrEqual(diagram.components.length);
    expect(measured.overlaps).toEqual([]);
    // The page itself never scrolls sideways; only the diagram's own scroller may.
    expect(measured.pageOverflow).toBeLessThanOrEqual(0);
  }

  it('at 1440×900: the whole flow fits the page width, every text at 12 px or more (counts 11 px), nothing on anything else', async () => {
    const { page, context, section, consoleErrors } = await openReview(DESKTOP, false);
    const measured = await measure(page);
    report('1440×900', measured);
    await section.screenshot({ path: path.join(SCREENSHOT_DIR, 'diagram-desktop-section.png'), animations: 'disabled' });
    expectLegibleAndClear(measured);
    // All of it in view across: every box and arrow label inside the frame, which is inside the
    // page's content column, and nothing to scroll sideways (so no scroll region and no hint).
    expect(measured.outside).toEqual([]);
    expect(measured.boxes.left).toBeGreaterThanOrEqual(measured.frame.left);
    expect(measured.boxes.right).toBeLessThanOrEqual(measured.frame.right);
    expect(measured.frame.left).toBeGreaterThanOrEqual(measured.content.left);
    expect(measured.frame.right).toBeLessThanOrEqual(measured.content.right);
    expect(measured.scroller?.scrollWidth).toBeLessThanOrEqual(measured.scroller?.clientWidth ?? 0);
    expect(measured.scroller?.role).toBeNull();
    expect(await page.getByText('The flow is wider than the page').count()).toBe(0);

    // Fit is what the reader already sees: the text stays as large.
    const fit = section.getByRole('button', { name: 'Fit' });
    expect(await fit.getAttribute('aria-pressed')).toBe('true');
    await fit.click();
    await waitForStableDiagram(page);
    const fitted = await measure(page);
    expect(fitted.zoom).toBeCloseTo(measured.zoom, 3);
    expect(smallest(fitted.texts.filter((entry) => !entry.count))).toBeGreaterThanOrEqual(MIN_TEXT_PX);

    expect(await accessibilityViolations(page)).toEqual([]);
    // A box still opens its comment panel.
    await page.locator('.react-flow__node[data-id="agentic-triage"]').click({ position: { x: 20, y: 20 } });
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Agentic Triage' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Zoomed in past the fit (to 125 %), the flow is wider than its frame again, and scrolls sideways as it says.
    await section.getByRole('button', { name: 'Zoom in' }).click();
    await section.getByText('100%').waitFor();
    await section.getByRole('button', { name: 'Zoom in' }).click();
    await section.getByText('125%').waitFor();
    // Zooming keeps the middle in the middle; the check starts from the left end.
    await page.getByRole('region', { name: 'Incident flow diagram, scrolls sideways' }).waitFor();
    await page.evaluate(`document.querySelector('[data-diagram-scroller]').scrollLeft = 0`);
    await expect.poll(() => sideOpacity(page, 'left')).toBe('0');
    await expectScrollsSideways(page, 'desktop');
    expect(withoutExpected401(consoleErrors)).toEqual([]);
    await context.close();
  });

  it('at 1440×900: a link at the top of the page takes the reader and the keyboard focus to the diagram', async () => {
    const { page, context, consoleErrors } = await openReview(DESKTOP, false, { scroll: false });
    expect(await page.evaluate<number>('window.scrollY')).toBe(0);
    const link = page.getByRole('link', { name: 'Go to the Incident Management Flow diagram' });
    // On the first screen, before the cards.
    const linkBox = await link.boundingBox();
    expect(linkBox?.y ?? Infinity).toBeLessThan(DESKTOP.height / 2);
    const firstCard = await page.getByRole('article').first().boundingBox();
    expect(linkBox?.y ?? Infinity).toBeLessThan(firstCard?.y ?? 0);

    await link.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate<string | null>('document.activeElement?.id ?? null')).toBe('incident-flow-heading');
    // Scrolled to the section once the scroll settles: its top at the top of the window.
    let previous = Number.NaN;
    for (let same = 0; same < 2; ) {
      const top = await page.evaluate<number>(`Math.round(document.getElementById('incident-flow').getBoundingClientRect().top)`);
      same = top === previous ? same + 1 : 0;
      previous = top;
      await page.evaluate(NEXT_FRAME);
    }
    expect(previous).toBeGreaterThanOrEqual(0);
    expect(previous).toBeLessThan(40);
    await waitForStableDiagram(page);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'diagram-after-link.png'), animations: 'disabled' });
    // The next Tab goes on into the diagram's own controls.
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string | null>('document.activeElement?.textContent?.trim() ?? null')).toBe('Display All');
    expect(withoutExpected401(consoleErrors)).toEqual([]);
    await context.close();
  });

  it('at 390×844 (phone): draws the diagram only as it nears the window, in the room kept for it', async () => {
    const { page, context, section, consoleErrors } = await openReview(PHONE, true, { scroll: false });
    await page.getByRole('article').first().waitFor();
    // Far below the first screen, the diagram is not drawn while the page loads...
    const sectionTop = await page.evaluate<number>(`document.getElementById('incident-flow').getBoundingClientRect().top`);
    expect(sectionTop).toBeGreaterThan(PHONE.height * 2);
    expect(await page.locator('.react-flow__node').count()).toBe(0);
    const before = await section.boundingBox();
    // ...and is drawn once scrolled to, where the page had kept its room: nothing below it moves.
    await section.scrollIntoViewIfNeeded();
    await waitForStableDiagram(page);
    expect(await page.locator('.react-flow__node').count()).toBe(diagram.components.length);
    const after = await section.boundingBox();
    expect(after?.height).toBe(before?.height);
    expect(withoutExpected401(consoleErrors)).toEqual([]);
    await context.close();
  });

  it('at 1440×900: every box Reveal next step shows is on screen together with the button', async () => {
    const { page, context, consoleErrors } = await openReview(DESKTOP, false);
    await revealEveryStep(page, 'desktop');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(withoutExpected401(consoleErrors)).toEqual([]);
    await context.close();
  });

  it('at 390×844 (phone): the same sizes, scrolled sideways in a keyboard-scrollable region with scroll buttons', async () => {
    const { page, context, section, consoleErrors } = await openReview(PHONE, true);
    const measured = await measure(page);
    report('390×844', measured);
    await section.screenshot({ path: path.join(SCREENSHOT_DIR, 'diagram-phone-section.png'), animations: 'disabled' });
    expectLegibleAndClear(measured);
    await expectScrollsSideways(page, 'phone');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(withoutExpected401(consoleErrors)).toEqual([]);
    await context.close();
  });

  it('at 390×844 (phone): every box Reveal next step shows is on screen together with the button', async () => {
    const { page, context, consoleErrors } = await openReview(PHONE, true);
    await revealEveryStep(page, 'phone');
    expect(withoutExpected401(consoleErrors)).toEqual([]);
    await context.close();
  });
});
