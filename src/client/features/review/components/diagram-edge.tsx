import { BaseEdge, type Edge, type EdgeProps } from '@xyflow/react';
import { LABEL_FONT, type EdgeKind, type EdgeLabel } from '../diagram-layout';

export type RoutedEdgeData = {
  path: string;
  kind: EdgeKind;
  label?: EdgeLabel;
};
export type RoutedEdge = Edge<RoutedEdgeData, 'routed'>;

export const FLOW_COLOUR = '#475569';
export const KNOWLEDGE_COLOUR = '#d97706';

/**
 * An arrow along the path the diagram's router chose, with its label on a white pill where the
 * router placed it. The pill is drawn at exactly the size the router kept free for it (sized to the
 * text as this browser measures it), rather than React Flow's own label, which sizes itself after
 * a render and could outgrow that space.
 */
export function DiagramEdge({ id, data, markerEnd }: EdgeProps<RoutedEdge>) {
  if (data === undefined) return null;
  const knowledge = data.kind === 'knowledge';
  const label = data.label;
  return (
    <>
      <BaseEdge
        id={id}
        path={data.path}
        markerEnd={markerEnd}
        interactionWidth={0}
        style={{ stroke: knowledge ? KNOWLEDGE_COLOUR : FLOW_COLOUR, strokeWidth: knowledge ? 2 : 2.25, strokeDasharray: knowledge ? '7 6' : undefined }}
      />
      {label !== undefined && (
        <g data-edge-label={id} pointerEvents="none">
          <rect
            x={label.x - label.width / 2}
            y={label.y - label.height / 2}
            width={label.width}
            height={label.height}
            rx={label.height / 2}
            fill="#ffffff"
            stroke="#94a3b8"
            strokeWidth={1}
          />
          <text
            x={label.x}
            y={label.y}
            textAnchor="middle"
            dominantBaseline="central"
            fontSize={LABEL_FONT.size}
            fontWeight={LABEL_FONT.weight}
            fill="#1e293b"
          >
            {label.text}
          </text>
        </g>
      )}
    </>
  );
}
