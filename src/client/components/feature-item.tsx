import type { LucideIcon } from 'lucide-react';

/** An entry of a feature list: a short title, a sentence about it, and its icon (a plain dot without one). */
export interface Feature {
  title: string;
  description: string;
  icon?: LucideIcon;
}

/** The look of one page's feature items. */
export interface FeatureItemClasses {
  item: string;
  /** The icon tile, or the dot when the entry has no icon. */
  marker: string;
  /** The title and text's column, where the layout needs one (a gap above it when stacked). */
  body?: string;
  title: string;
  text: string;
}

/**
 * One entry of the feature lists of the sign-in, capabilities and principles pages: a decorative
 * marker beside the title and its sentence. Each page gives its own look.
 */
export function FeatureItem({ feature, classes }: { feature: Feature; classes: FeatureItemClasses }) {
  const Icon = feature.icon;
  return (
    <li className={classes.item}>
      <span aria-hidden="true" className={classes.marker}>
        {Icon !== undefined && <Icon className="h-5 w-5" aria-hidden="true" />}
      </span>
      <div className={classes.body}>
        <p className={classes.title}>{feature.title}</p>
        <p className={classes.text}>{feature.description}</p>
      </div>
    </li>
  );
}
