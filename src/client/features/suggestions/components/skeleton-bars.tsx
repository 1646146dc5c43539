import { Skeleton } from '../../../components/ui/skeleton';

/** The bars of a loading placeholder, one after the other: each entry sizes and spaces one bar. */
export function SkeletonBars({ bars }: { bars: readonly string[] }) {
  return bars.map((className, index) => <Skeleton key={index} className={className} />);
}
