import type { DiagramComponent } from '../../../common/contract/architecture';

/** The x of the diagram's nth column, as the content file places its boxes. */
export const column = (index: number) => index * 240;

/** A diagram box for a layout test: its id doubles as its title. */
export const box = (id: string, phase: DiagramComponent['phase'], x: number, y: number, width: DiagramComponent['width'], flagged = false): DiagramComponent => ({
  id,
  title: id,
  description: `${id} description`,
  phase,
  color: '#1d4ed8',
  x,
  y,
  width,
  ...(flagged ? { connectsToKnowledgeGraph: true } : {}),
});
