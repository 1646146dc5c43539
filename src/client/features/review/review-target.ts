/** A card or diagram box the comment panel is opened for. */
export interface ReviewTarget {
  id: string;
  title: string;
  description: string;
  /** Where it sits: the card group's title or the diagram phase. */
  context: string;
}
