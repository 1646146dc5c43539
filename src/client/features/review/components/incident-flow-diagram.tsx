import '@xyflow/react/dist/style.css';
import { MarkerType, ReactFlow, type NodeMouseHandler } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Architecture } from '../../../../common/contract/architecture';
import type { CommentCounts } from '../../../../common/contract/comments';
import { countOf } from '../comment-counts';
import { nodeRect, type DiagramView, type Rect } from '../diagram-geometry';
import { roundedPath, type DiagramLayout } from '../diagram-layout';
import { computeDiagramLayout, knownDiagramLayout } from '../diagram-layout-cache';
import type { OpenComments } from '../use-comment-panel';
import { DiagramEdge, FLOW_COLOUR, type RoutedEdge } from './diagram-edge';
import { DiagramNode, targetOf, type ComponentNode } from './diagram-node';

const nodeTypes = { component: DiagramNode };
const edgeTypes = { routed: DiagramEdge };
const proOptions = { hideAttribution: true };
// A picture to click, not an editor: nothing moves, connects, takes focus or is selected.
const PICTURE_ONLY = { nodesDraggable: false, nodesConnectable: false, nodesFocusable: false, edgesFocusable: false, elementsSelectable: false } as const;
// The page's scroll container pans and the zoom buttons zoom; React Flow's own gestures are off.
const PAGE_SCROLLS = { panOnDrag: false, panOnScroll: false, zoomOnScroll: false, zoomOnPinch: false, zoomOnDoubleClick: false } as const;

interface IncidentFlowDiagramProps {
  diagram: Architecture['diagram'];
  visibleIds: ReadonlySet<string>;
  counts: CommentCounts | undefined;
  view: DiagramView;
  bounds: Rect;
  onOpenComments: OpenComments;
}

/**
 * The incident-flow diagram, drawn by React Flow at a zoom the page chooses (fitted to the width
 * where its text stays readable, else readable and scrolled sideways). React Flow's own panning and zooming are off:
 * the page's scroll container moves it instead, so touch scrolling, keyboard focus and the page's
 * vertical scroll all behave natively, and the picture is the same for every reviewer.
 */
export default function IncidentFlowDiagram({ diagram, visibleIds, counts, view, bounds, onOpenComments }: IncidentFlowDiagramProps) {
  // The boxes go on screen at once; the arrows follow as soon as they are routed (at once when this
  // diagram was routed before).
  const [routed, setRouted] = useState<{ diagram: Architecture['diagram']; layout: DiagramLayout } | undefined>(() => {
    const known = knownDiagramLayout(diagram);
    return known === undefined ? undefined : { diagram, layout: known };
  });
  const layout = routed?.diagram === diagram ? routed.layout : undefined;
  useEffect(() => {
    if (layout !== undefined) return undefined;
    return computeDiagramLayout(diagram, (computed) => {
      setRouted({ diagram, layout: computed });
    });
  }, [diagram, layout]);
  const titles = useMemo(() => new Map(diagram.components.map((component) => [component.id, component.title])), [diagram.components]);

  const nodes = useMemo<ComponentNode[]>(
    () =>
      diagram.components.map((component) => {
        const rect = nodeRect(component);
        return {
          id: component.id,
          type: 'component',
          position: { x: component.x, y: component.y },
          width: rect.width,
          height: rect.height,
          data: { component, count: countOf(counts, component.id), onOpenComments },
          hidden: !visibleIds.has(component.id),
          draggable: false,
          selectable: false,
          connectable: false,
          focusable: false,
          ariaRole: 'group',
          ariaLabel: `${component.title}, ${component.phase}`,
        };
      }),
    [diagram.components, counts, onOpenComments, visibleIds],
  );

  const edges = useMemo<RoutedEdge[]>(
    () =>
      (layout?.edges ?? []).map((edge) => {
        const from = titles.get(edge.source) ?? edge.source;
        const to = titles.get(edge.target) ?? edge.target;
        const knowledge = edge.kind === 'knowledge';
        const data: RoutedEdge['data'] = { path: roundedPath(edge.points), kind: edge.kind, ...(edge.label === undefined ? {} : { label: edge.label }) };
        return {
          id: edge.id,
          source: edge.source,
          target: edge.target,
          type: 'routed',
          data,
          hidden: !visibleIds.has(edge.source) || !visibleIds.has(edge.target),
          selectable: false,
          focusable: false,
          ariaLabel: knowledge
            ? `${from} reads and writes the IT Knowledge Graph (${to})`
            : `${from} leads to ${to}${edge.label === undefined ? '' : `: ${edge.label.text}`}`,
          ...(knowledge ? {} : { markerEnd: { type: MarkerType.ArrowClosed, color: FLOW_COLOUR, width: 20, height: 20 } }),
        };
      }),
    [layout?.edges, titles, visibleIds],
  );

  const onNodeClick = useCallback<NodeMouseHandler<ComponentNode>>(
    (event, node) => {
      // The Comment button opens the panel itself; a click elsewhere on the box does the same.
      if (event.target instanceof Element && event.target.closest('[data-comment-trigger]') !== null) return;
      const trigger = event.currentTarget instanceof Element ? event.currentTarget.querySelector<HTMLElement>('[data-comment-trigger]') : null;
      onOpenComments(targetOf(node.data.component), trigger);
    },
    [onOpenComments],
  );

  const viewport = useMemo(() => ({ x: -bounds.x * view.zoom, y: -bounds.y * view.zoom, zoom: view.zoom }), [bounds.x, bounds.y, view.zoom]);

  // React Flow fills its parent (its own style wins over a `style` prop), so the parent carries the size.
  return (
    <div style={{ width: view.width, height: view.height }}>
      <ReactFlow<ComponentNode, RoutedEdge>
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      viewport={viewport}
      minZoom={0.1}
      maxZoom={2}
      className="[&_.react-flow__node]:touch-auto [&_.react-flow__pane]:cursor-default [&_.react-flow__pane]:touch-auto"
      onNodeClick={onNodeClick}
      {...PICTURE_ONLY}
      {...PAGE_SCROLLS}
      preventScrolling={false}
      disableKeyboardA11y
      proOptions={proOptions}
      />
    </div>
  );
}
