import clsx from 'clsx';
import { ChevronLeft, ChevronRight, Eye, ListOrdered, MoveHorizontal, RotateCcw, Scan, StepForward, Workflow, ZoomIn, ZoomOut, type LucideIcon } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type ComponentProps, type MouseEvent } from 'react';
import type { Architecture } from '../../../../common/contract/architecture';
import type { CommentCounts } from '../../../../common/contract/comments';
import { Button } from '../../../components/ui/button';
import { ToggleGroup } from '../../../components/ui/toggle-group';
import { arrangeDiagram, bandsToFit } from '../diagram-arrangement';
import { diagramBounds, diagramView, nextZoom, nodeRect, type ZoomChoice } from '../diagram-geometry';
import { initialRevealState, revealReducer, visibleComponentIds, type DiagramMode } from '../reveal-state';
import type { OpenComments } from '../use-comment-panel';
import { useElementWidth } from '../../../lib/use-element-width';
import { useNearViewport } from '../../../lib/use-near-viewport';
import { whenIdle } from '../../../lib/use-after-idle';

// React Flow and its stylesheet (~50 KiB gzip) live in their own chunk. It is fetched once the page
// has loaded and the browser is idle (or as soon as the diagram nears the window): on a phone's
// connection it would otherwise share the bandwidth with what the first screen shows.
const importDiagram = () => import('./incident-flow-diagram');
let diagramModule: ReturnType<typeof importDiagram> | undefined;
let loadedDiagram: Awaited<ReturnType<typeof importDiagram>>['default'] | undefined;
const loadDiagram = () =>
  (diagramModule ??= importDiagram().then((module) => {
    loadedDiagram = module.default;
    return module;
  }));
const LazyDiagram = lazy(loadDiagram);

function Diagram(props: ComponentProps<typeof LazyDiagram>) {
  // Chosen once per mount: switching from the lazy wrapper to the loaded component later would
  // remount the diagram. Once the chunk is in, it renders directly: a lazy component suspends once
  // even when its code has arrived, and React then holds the reveal for up to 300 ms.
  const [Component] = useState(() => loadedDiagram ?? LazyDiagram);
  return <Component {...props} />;
}

const MODE_OPTIONS = [
  { value: 'all', label: 'Display All', icon: <Eye className="h-4 w-4" aria-hidden="true" /> },
  { value: 'step', label: 'Reveal Step-by-Step', icon: <ListOrdered className="h-4 w-4" aria-hidden="true" /> },
] as const;

const SECTION_ID = 'incident-flow';
/** How close to the window the diagram is drawn: about a screen ahead of the reader scrolling to it. */
const NEAR_DIAGRAM_MARGIN = '800px 0px';
const HEADING_ID = 'incident-flow-heading';
const SCROLL_HINT_ID = 'incident-flow-scroll-hint';
/** Room kept between a newly revealed box and the window's edges (or the sticky step bar), in pixels. */
const REVEAL_MARGIN = 16;

const smoothUnlessReduced = (): ScrollBehavior => (window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth');

/**
 * A link near the top of the main page to the diagram, which sits below two groups of cards: it
 * scrolls to the section and moves the keyboard focus to its heading, so the next Tab is in the
 * diagram's controls. Until the section is on the page it is a plain fragment link.
 */
export function IncidentFlowLink({ className }: { className?: string }) {
  const go = (event: MouseEvent<HTMLAnchorElement>) => {
    const heading = document.getElementById(HEADING_ID);
    const section = document.getElementById(SECTION_ID);
    if (heading === null || section === null) return;
    event.preventDefault();
    section.scrollIntoView({ block: 'start', behavior: smoothUnlessReduced() });
    heading.focus({ preventScroll: true });
  };
  return (
    <a href={`#${SECTION_ID}`} onClick={go} className={className}>
      <Workflow className="h-4 w-4 shrink-0" aria-hidden="true" />
      Go to the Incident Management Flow diagram
    </a>
  );
}

export function IncidentFlowSection({ diagram, counts, onOpenComments }: { diagram: Architecture['diagram']; counts: CommentCounts | undefined; onOpenComments: OpenComments }) {
  useEffect(() => whenIdle(() => void loadDiagram(), { timeoutMs: 3000, fallbackMs: 1500 }), []);
  const [reveal, dispatch] = useReducer(revealReducer, initialRevealState);
  const [measure, containerWidth] = useElementWidth();
  // React Flow lays out and measures every box: done as the diagram nears the window, not while the
  // page loads below the fold (a phone's main thread is busy enough then). Its code still comes early.
  const [watch, near] = useNearViewport(NEAR_DIAGRAM_MARGIN);
  const scroller = useRef<HTMLDivElement | null>(null);
  const stepBar = useRef<HTMLDivElement | null>(null);
  // Wrapped into two bands where one row would not fit at a readable size (the same object for the same diagram).
  const arranged = arrangeDiagram(diagram, bandsToFit(diagram, containerWidth));
  const bounds = useMemo(() => diagramBounds(arranged.components), [arranged.components]);
  const [zoomChoice, setZoomChoice] = useState<ZoomChoice>('readable');
  const view = diagramView(bounds, containerWidth, zoomChoice);
  const zoomIn = nextZoom(view.zoom, 1);
  const zoomOut = nextZoom(view.zoom, -1);
  const fitted = Math.abs(view.zoom - view.fitZoom) < 0.001;

  // Which ways the diagram can still scroll: the side buttons and fades show only there.
  const [scrollable, setScrollable] = useState({ left: false, right: false });
  const updateScrollable = useCallback(() => {
    const element = scroller.current;
    if (element === null) return;
    const left = element.scrollLeft > 1;
    const right = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
    setScrollable((current) => (current.left === left && current.right === right ? current : { left, right }));
  }, []);
  useLayoutEffect(updateScrollable, [updateScrollable, view.width, containerWidth]);
  const scrollSideways = (direction: 1 | -1) => {
    const element = scroller.current;
    if (element === null) return;
    element.scrollBy({ left: direction * Math.max(120, element.clientWidth * 0.7), behavior: smoothUnlessReduced() });
  };

  // Zooming keeps the middle of what was on screen in the middle.
  const shownZoom = useRef(view.zoom);
  useLayoutEffect(() => {
    const element = scroller.current;
    const previous = shownZoom.current;
    shownZoom.current = view.zoom;
    if (element === null || previous === view.zoom) return;
    const middle = element.scrollLeft + element.clientWidth / 2;
    element.scrollLeft = Math.max(0, (middle * view.zoom) / previous - element.clientWidth / 2);
    updateScrollable();
  }, [view.zoom, updateScrollable]);
  const allIds = useMemo(() => diagram.components.map((component) => component.id), [diagram.components]);
  const visible = useMemo(() => visibleComponentIds(reveal, allIds, diagram.stepOrder), [reveal, allIds, diagram.stepOrder]);
  const total = diagram.stepOrder.length;
  const latestId = reveal.mode === 'step' && reveal.revealed > 0 ? diagram.stepOrder[reveal.revealed - 1] : undefined;
  const latest = latestId === undefined ? undefined : arranged.components.find((component) => component.id === latestId);

  /**
   * Brings the box a click revealed into view with the step bar: sideways in the diagram's scroller
   * when it scrolls, and up or down the page so the box is clear of the step bar, which sticks to
   * the top of the window. Measured once the click has rendered (the bar's own height may have
   * changed with it), from the box's place in the layout, not its element, which React Flow draws
   * a frame later. Only after a click: a resize or a zoom leaves the page where the reader put it.
   */
  const revealedByClick = useRef(false);
  useLayoutEffect(() => {
    if (!revealedByClick.current) return;
    revealedByClick.current = false;
    const element = scroller.current;
    if (latest === undefined || element === null) return;
    const rect = nodeRect(latest);
    const behavior = smoothUnlessReduced();
    if (view.scrolls) {
      const left = (rect.x - bounds.x) * view.zoom;
      const right = left + rect.width * view.zoom;
      // A little of what comes before it too, unless the box is about as wide as the frame.
      const before = right - left > element.clientWidth - 48 ? 0 : 24;
      if (left < element.scrollLeft || right > element.scrollLeft + element.clientWidth) element.scrollTo({ left: Math.max(0, left - before), behavior });
    }
    const top = element.getBoundingClientRect().top + element.clientTop + (rect.y - bounds.y) * view.zoom;
    const bottom = top + rect.height * view.zoom;
    // Where the step bar ends once stuck to the top of the window; above that the box would be under it.
    const clearTop = (stepBar.current?.offsetHeight ?? 0) + REVEAL_MARGIN;
    const clearBottom = window.innerHeight - REVEAL_MARGIN;
    const by = top < clearTop ? top - clearTop : bottom > clearBottom ? Math.min(bottom - clearBottom, top - clearTop) : 0;
    if (by !== 0) window.scrollBy({ top: by, behavior });
  });

  return (
    <section id={SECTION_ID} aria-labelledby={HEADING_ID} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-3xl">
          {/* Focused by the link at the top of the page (IncidentFlowLink). */}
          <h2 id={HEADING_ID} tabIndex={-1} className="w-fit rounded-sm text-xl font-bold text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-600">
            Incident Management Flow
          </h2>
          <p className="mt-1 text-slate-600">
            How an incident travels from the first signal to prevention, phase by phase, with the Connection Hub feeding it and the IT Knowledge
            Graph behind every decision. Select a box to read its description and comment on it.
          </p>
        </div>
        <ToggleGroup
          label="Diagram display"
          options={MODE_OPTIONS}
          value={reveal.mode}
          onChange={(mode: DiagramMode) => {
            dispatch({ type: 'set-mode', mode });
          }}
        />
      </div>

      {reveal.mode === 'step' && (
        // Sticks to the top of the window while the diagram scrolls under it, so the button and the box it reveals are on screen together.
        <div ref={stepBar} data-step-bar="" className="sticky top-0 z-10 -mx-4 mt-2 flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white px-4 py-2 sm:-mx-6 sm:px-6">
          {/* aria-disabled, not disabled, once all are shown: a disabled button would drop keyboard focus. */}
          <Button
            onClick={() => {
              revealedByClick.current = reveal.revealed < total;
              dispatch({ type: 'reveal-next', total });
            }}
            aria-disabled={reveal.revealed >= total}
            className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
          >
            <StepForward className="h-4 w-4" aria-hidden="true" />
            Reveal next step
          </Button>
          <span className="text-sm font-semibold text-slate-800 tabular-nums" aria-hidden="true">
            {reveal.revealed} / {total}
          </span>
          {/* Kept in place while there is nothing to start over, so the bar does not change size on the first step. */}
          <Button
            variant="ghost"
            size="sm"
            className={clsx(reveal.revealed === 0 && 'invisible')}
            onClick={() => {
              dispatch({ type: 'restart' });
            }}
          >
            <RotateCcw className="h-4 w-4" aria-hidden="true" />
            Start over
          </Button>
          {/* One line beside the buttons, cut short if need be (a screen reader hears all of it), so the bar keeps its height from step to step. */}
          <p role="status" className="min-h-5 min-w-0 flex-1 truncate text-sm text-slate-600">
            <span className="sr-only">
              Step {reveal.revealed} of {total}
              {latest === undefined ? '' : ': '}
            </span>
            {latest === undefined ? (
              <span className="sr-only">no boxes shown yet</span>
            ) : (
              <span>
                <span className="font-medium text-slate-900">{latest.title}</span> ({latest.phase})
              </span>
            )}
          </p>
        </div>
      )}

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <DiagramLegend />
        <div role="group" aria-label="Diagram zoom" className="flex items-center gap-1">
          <ZoomStepButton label="Zoom out" icon={ZoomOut} zoom={zoomOut} onZoom={setZoomChoice} />
          <Button
            variant="outline"
            size="sm"
            aria-pressed={fitted}
            title="Fit the whole flow in the width"
            className="aria-pressed:bg-slate-100"
            onClick={() => {
              setZoomChoice('fit');
            }}
          >
            <Scan className="h-4 w-4" aria-hidden="true" />
            Fit
          </Button>
          <ZoomStepButton label="Zoom in" icon={ZoomIn} zoom={zoomIn} onZoom={setZoomChoice} />
          <span className="w-12 text-right text-sm text-slate-600 tabular-nums" aria-live="polite">
            {Math.round(view.zoom * 100)}%
          </span>
        </div>
      </div>

      <div className="relative mt-3">
        <div
          ref={(element) => {
            scroller.current = element;
            const stopMeasuring = measure(element);
            const stopWatching = watch(element);
            return () => {
              stopMeasuring?.();
              stopWatching?.();
            };
          }}
          data-diagram-scroller=""
          onScroll={updateScrollable}
          className="overflow-x-auto overscroll-x-contain rounded-xl border border-slate-200 bg-slate-50"
          {...(view.scrolls ? { role: 'region', 'aria-label': 'Incident flow diagram, scrolls sideways', 'aria-describedby': SCROLL_HINT_ID, tabIndex: 0 } : {})}
        >
          {containerWidth > 0 &&
            (near ? (
              <Suspense fallback={<DiagramPlaceholder width={view.width} height={view.height} />}>
                <Diagram diagram={arranged} visibleIds={visible} counts={counts} view={view} bounds={bounds} onOpenComments={onOpenComments} />
              </Suspense>
            ) : (
              // Its room kept, so nothing below moves when it is drawn.
              <div style={{ width: view.width, height: view.height }} data-diagram-pending="" />
            ))}
        </div>
        {view.scrolls && (
          <>
            <ScrollEdge
              side="left"
              shown={scrollable.left}
              onScroll={() => {
                scrollSideways(-1);
              }}
            />
            <ScrollEdge
              side="right"
              shown={scrollable.right}
              onScroll={() => {
                scrollSideways(1);
              }}
            />
          </>
        )}
        {reveal.mode === 'step' && reveal.revealed === 0 && (
          <p className="pointer-events-none absolute inset-x-0 top-8 px-4 text-center text-sm font-medium text-slate-600">
            Select <span className="font-semibold text-slate-900">Reveal next step</span> to show the first box.
          </p>
        )}
      </div>
      {view.scrolls && (
        <p id={SCROLL_HINT_ID} className="mt-2 flex items-center gap-1.5 text-xs text-slate-600 sm:text-sm">
          <MoveHorizontal className="h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            <span className="sm:hidden">Swipe sideways to follow the flow.</span>
            <span className="hidden sm:inline">The flow is wider than the page: scroll sideways with the buttons at either side, Shift + mouse wheel or the arrow keys, or choose Fit to see all of it, smaller.</span>
          </span>
        </p>
      )}
    </section>
  );
}

/** One zoom step; at the end of the range it is aria-disabled rather than disabled, so it keeps focus. */
function ZoomStepButton({ label, icon: Icon, zoom, onZoom }: { label: string; icon: LucideIcon; zoom: number | null; onZoom: (zoom: number) => void }) {
  return (
    <Button
      variant="outline"
      size="icon"
      className="h-8 w-8 aria-disabled:opacity-50"
      aria-label={label}
      aria-disabled={zoom === null}
      onClick={() => {
        if (zoom !== null) onZoom(zoom);
      }}
    >
      <Icon className="h-4 w-4" aria-hidden="true" />
    </Button>
  );
}

/**
 * One side of a diagram that scrolls: a fade that says there is more that way, and a round button
 * that scrolls there, both shown only while there is more. The button is for pointers; keyboards
 * scroll the focused region with the arrow keys, so it stays out of the tab order and away from
 * assistive technology, which reads the whole diagram anyway.
 */
function ScrollEdge({ side, shown, onScroll }: { side: 'left' | 'right'; shown: boolean; onScroll: () => void }) {
  const Icon = side === 'left' ? ChevronLeft : ChevronRight;
  return (
    <div
      aria-hidden="true"
      className={clsx(
        'pointer-events-none absolute inset-y-px flex w-12 items-center transition-opacity duration-200 motion-reduce:transition-none sm:w-16',
        side === 'left' ? 'left-px justify-start rounded-l-xl bg-linear-to-r pl-1.5 sm:pl-2' : 'right-px justify-end rounded-r-xl bg-linear-to-l pr-1.5 sm:pr-2',
        'from-slate-50 via-slate-50/70 to-transparent',
        shown ? 'opacity-100' : 'opacity-0',
      )}
    >
      <button
        type="button"
        tabIndex={-1}
        title={side === 'left' ? 'Scroll left' : 'Scroll right'}
        onClick={onScroll}
        className={clsx(
          'flex h-9 w-9 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-700 shadow-md hover:bg-slate-50 hover:text-slate-900',
          shown ? 'pointer-events-auto' : 'pointer-events-none',
        )}
      >
        <Icon className="h-5 w-5" aria-hidden="true" />
      </button>
    </div>
  );
}

function DiagramPlaceholder({ width, height }: { width: number; height: number }) {
  return (
    <div role="status" style={{ width, height }} className="flex items-center justify-center">
      <span className="flex items-center gap-2 text-sm text-slate-600">
        <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600 motion-reduce:animate-none" aria-hidden="true" />
        Loading the diagram…
      </span>
    </div>
  );
}

function DiagramLegend() {
  return (
    <ul aria-label="Legend" className="flex flex-wrap items-center gap-x-5 gap-y-1.5 text-xs text-slate-700 sm:text-sm">
      <li className="flex items-center gap-2">
        <svg width="36" height="10" viewBox="0 0 36 10" aria-hidden="true">
          <line x1="0" y1="5" x2="28" y2="5" stroke="#475569" strokeWidth="2" />
          <path d="M28 1 L35 5 L28 9 Z" fill="#475569" />
        </svg>
        Incident flow
      </li>
      <li className="flex items-center gap-2">
        <svg width="36" height="10" viewBox="0 0 36 10" aria-hidden="true">
          <line x1="0" y1="5" x2="36" y2="5" stroke="#d97706" strokeWidth="2" strokeDasharray="5 4" />
        </svg>
        Reads and writes the IT Knowledge Graph
      </li>
      <li className="flex items-center gap-2">
        <span className="h-3 w-5 rounded-sm border border-amber-400 bg-amber-200" aria-hidden="true" />
        IT Knowledge Graph
      </li>
      <li className="flex items-center gap-2">
        <span className="h-3 w-5 rounded-sm border border-slate-400 bg-slate-200" aria-hidden="true" />
        Connection Hub
      </li>
    </ul>
  );
}
