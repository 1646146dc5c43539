import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { architecture } from '../src/server/content/architecture.js';
import { launchBrowser, newPage, seedMember, signIn, startServer, type RunningServer } from './harness.js';

/*
 * The incident-flow diagram must be readable as it first appears, without the reader zooming:
 * every box title at 12 px or more and every label (a box's phase, an arrow's label, a comment
 * count) at 11 px or more, as rendered: the CSS font size times the scale the diagram's viewport
 * transform applies. And nothing may sit on anything else: no label on an arrow or a box, no box
 * on another, no arrow through a box it does not start or end at.
 *
 * Measured in the page (browser-side code goes to page.evaluate as strings: this file is
 * type-checked for Node, without the DOM library). The page's CSP forbids the eval that
 * waitForFunction would need, so waiting is polling with evaluate, for a state, never for a time.
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const MEMBER = { name: 'Lena Legible', pin: '8631' };

const MIN_TITLE_PX = 12;
const MIN_LABEL_PX = 11;
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
  titles: { text: string; px: number }[];
  labels: { kind: 'phase' | 'edge' | 'count'; text: string; px: number }[];
  /** Every overlap found, as readable lines. */
  overlaps: string[];
  counts: { nodes: number; edges: number; edgeLabels: number; pathsSampled: number; pointsSampled: number };
  /** The arrow labels drawn on their own arrow's line (whose own arrow is exempt from the overlap check). */
  onOwnLine: string[];
  scroller: { scrollWidth: number; clientWidth: number; tabIndex: number; role: string | null; label: string | null } | null;
  pageOverflow: number;
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
    const scroller = scrollerElement === null ? null : {
      scrollWidth: scrollerElement.scrollWidth,
      clientWidth: scrollerElement.clientWidth,
      tabIndex: scrollerElement.tabIndex,
      role: scrollerElement.getAttribute('role'),
      label: scrollerElement.getAttribute('aria-label'),
    };
    return {
      zoom,
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

function report(label: string, measured: Measurement): void {
  const byKind = (kind: string) => measured.labels.filter((entry) => entry.kind === kind);
  console.log(
    `[diagram-legibility] ${label}: zoom ${measured.zoom.toFixed(3)}; smallest title ${smallest(measured.titles)} px, ` +
      `phase label ${smallest(byKind('phase'))} px, arrow label ${smallest(byKind('edge'))} px, comment count ${smallest(byKind('count'))} px; ` +
      `${measured.counts.nodes} boxes, ${measured.counts.edges} arrows (${measured.counts.pointsSampled} points sampled), ${measured.counts.edgeLabels} arrow labels ` +
      `(${measured.onOwnLine.length} on their own arrow's line); ` +
      `${measured.overlaps.length} overlaps${measured.overlaps.length > 0 ? `:\n  ${measured.overlaps.join('\n  ')}` : ''}; ` +
      `scroller ${JSON.stringify(measured.scroller)}`,
  );
}

describe('incident-flow diagram legibility', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await seedMember(server, MEMBER.name, { pin: MEMBER.pin });
  });

  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  async function openReview(viewport: { width: number; height: number }, mobile: boolean) {
    const opened = await newPage(browser, { viewport, mobile });
    await signIn(opened.page, server, { ...MEMBER, path: '/' });
    const section = opened.page.getByRole('region', { name: 'Incident Management Flow' });
    await section.waitFor();
    await section.scrollIntoViewIfNeeded();
    await waitForStableDiagram(opened.page);
    return { ...opened, section };
  }

  function expectLegibleAndClear(measured: Measurement) {
    expect(measured.counts.nodes).toBe(diagram.components.length);
    expect(measured.titles).toHaveLength(diagram.components.length);
    expect(measured.labels.filter((entry) => entry.kind === 'phase')).toHaveLength(diagram.components.length);
    expect(measured.counts.edgeLabels).toBe(TEXTS.edgeLabels.length);
    for (const title of measured.titles) expect(title.px, `title "${title.text}"`).toBeGreaterThanOrEqual(MIN_TITLE_PX);
    for (const label of measured.labels) expect(label.px, `${label.kind} label "${label.text}"`).toBeGreaterThanOrEqual(MIN_LABEL_PX);
    expect(measured.overlaps).toEqual([]);
    // The page itself never scrolls sideways; only the diagram's own scroller may.
    expect(measured.pageOverflow).toBeLessThanOrEqual(0);
  }

  it('at 1440×900: titles ≥ 12 px, labels ≥ 11 px, nothing on anything else', async () => {
    const { page, context, section, consoleErrors } = await openReview(DESKTOP, false);
    const measured = await measure(page);
    report('1440×900', measured);
    await page.screenshot({ path: '/tmp/diagram-desktop.png', animations: 'disabled' });
    await section.screenshot({ path: '/tmp/diagram-desktop-section.png', animations: 'disabled' });
    expectLegibleAndClear(measured);
    // 1440 px is not wide enough for the whole flow at a readable size: it scrolls, and says so.
    await expectScrollsSideways(page, 'desktop');
    // A box still opens its comment panel.
    await page.locator('.react-flow__node[data-id="agentic-triage"]').click({ position: { x: 20, y: 20 } });
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Agentic Triage' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(consoleErrors.filter((line) => !line.includes('status of 401 (Unauthorized)'))).toEqual([]);
    await context.close();
  });

  it('at 390×844 (phone): the same sizes, scrolled sideways in a keyboard-scrollable region with scroll buttons', async () => {
    const { page, context, section, consoleErrors } = await openReview(PHONE, true);
    const measured = await measure(page);
    report('390×844', measured);
    await page.screenshot({ path: '/tmp/diagram-phone.png', animations: 'disabled' });
    await section.screenshot({ path: '/tmp/diagram-phone-section.png', animations: 'disabled' });
    expectLegibleAndClear(measured);
    await expectScrollsSideways(page, 'phone');
    expect(consoleErrors.filter((line) => !line.includes('status of 401 (Unauthorized)'))).toEqual([]);
    await context.close();
  });
});
