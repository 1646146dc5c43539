import { BaseEdge, type Edge, type EdgeProps } from '@xyflow/react';
import { LABEL_FONT_SIZE, type EdgeKind, type EdgeLabel } from '../diagram-layout';

export type RoutedEdgeData = {
  path: string;
  kind: EdgeKind;
  label?: EdgeLabel;
};
export type RoutedEdge = Edge<RoutedEdgeData, 'routed'>;

export const FLOW_COLOUR = '#475569';
export const KNOWLEDGE_COLOUR = '#d97706';

/** An arrow along the path the diagram's router chose, with its label on a white pill where the router placed it. */
export function DiagramEdge({ id, data, markerEnd }: EdgeProps<RoutedEdge>) {
  if (data === undefined) return null;
  const knowledge = data.kind === 'knowledge';
  const label = data.label;
  return (
    <BaseEdge
      id={id}
      path={data.path}
      markerEnd={markerEnd}
      interactionWidth={0}
      style={{ stroke: knowledge ? KNOWLEDGE_COLOUR : FLOW_COLOUR, strokeWidth: knowledge ? 2 : 2.25, strokeDasharray: knowledge ? '7 6' : undefined }}
      {...(label === undefined
        ? {}
        : {
            label: label.text,
            labelX: label.x,
            labelY: label.y,
            labelStyle: { fontSize: LABEL_FONT_SIZE, fontWeight: 600, fill: '#1e293b' },
            labelShowBg: true,
            labelBgStyle: { fill: '#ffffff', stroke: '#cbd5e1', strokeWidth: 1 },
            labelBgPadding: [8, 3] as [number, number],
            labelBgBorderRadius: 9,
          })}
    />
  );
}
