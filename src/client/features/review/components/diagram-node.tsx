import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import type { DiagramComponent } from '../../../../common/contract/architecture';
import { boxInk } from '../box-colours';
import { DIAGRAM_FONT } from '../diagram-geometry';
import type { ComponentCount } from '../comment-counts';
import type { ReviewTarget } from '../review-target';
import type { OpenComments } from '../use-comment-panel';
import { CommentCountBadge } from './comment-count-badge';
import { CommentTrigger } from './comment-trigger';
import { DecisionIcon } from '../../../components/ui/decision-chip';

export type ComponentNodeData = {
  component: DiagramComponent;
  count: ComponentCount | undefined;
  onOpenComments: OpenComments;
};
export type ComponentNode = Node<ComponentNodeData, 'component'>;

export function targetOf(component: DiagramComponent): ReviewTarget {
  return { id: component.id, title: component.title, description: component.description, context: component.phase };
}

/**
 * One box of the incident flow: phase, title and comment count, with the Comment button that shows
 * on hover and on keyboard focus. The button is the box's one tab stop; the whole box also opens
 * the panel on click (onNodeClick). Arrows are drawn by the diagram's own router, so the handles
 * only satisfy React Flow and stay invisible.
 */
export function DiagramNode({ data }: NodeProps<ComponentNode>) {
  const { component, count, onOpenComments } = data;
  const ink = boxInk(component.color);
  return (
    <div
      className="group relative flex h-full w-full cursor-pointer flex-col rounded-xl border px-2.5 py-2 shadow-sm transition-shadow hover:shadow-md has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-3 has-[:focus-visible]:outline-slate-900"
      style={{ backgroundColor: component.color, color: ink.text, borderColor: ink.onDark ? 'rgba(0,0,0,0.25)' : 'rgba(17,24,39,0.25)' }}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} className="!pointer-events-none !opacity-0" />
      <div className="flex items-center justify-between gap-2">
        <span className="truncate leading-[16px] font-bold tracking-wide uppercase" style={{ fontSize: DIAGRAM_FONT.label }}>
          {component.phase}
        </span>
        {count?.decision != null && <DecisionIcon outcome={count.decision} className="ml-auto" />}
        {/* DIAGRAM_FONT.label, as the phase. */}
        <CommentCountBadge count={count} tone={ink.onDark ? 'on-dark' : 'on-light'} className="!px-1.5 !py-0 !text-[13.5px] !leading-[16px]" />
      </div>
      {/* Three lines of title fit under the phase: 8 + 16 + 4 + 3 × 20 + 8 = 96 units, the box's height. */}
      <p className="mt-1 line-clamp-3 leading-[20px] font-semibold break-words" style={{ fontSize: DIAGRAM_FONT.title }}>
        {component.title}
      </p>
      {/* Over the box's lower right corner, shown on hover and keyboard focus; a tap on the box opens the panel on touch screens. */}
      <CommentTrigger
        target={targetOf(component)}
        onOpen={onOpenComments}
        className="!absolute right-1.5 bottom-1.5 !h-7 !px-2 !text-[13.5px] [@media(hover:none)]:!opacity-0 [@media(hover:none)]:group-focus-within:!opacity-100"
      />
      <Handle type="source" position={Position.Right} isConnectable={false} className="!pointer-events-none !opacity-0" />
    </div>
  );
}
