import { useEffect, useState, type ReactElement } from 'react';
import type { TipProps } from './tooltip-popup';

type TipComponent = (props: TipProps) => ReactElement;

// Radix Tooltip brings its positioning code (Popper, Floating UI: about 14 KiB gzip) and would put
// it in the first load of every page with an icon control. A tooltip is only needed once the
// pointer or focus reaches a control, so it loads beside the page: until it is here the control
// renders alone, with its own accessible name.
let loaded: TipComponent | null = null;
let loading: Promise<TipComponent> | null = null;

function loadTip(): Promise<TipComponent> {
  loading ??= import('./tooltip-popup').then(
    (module) => {
      loaded = module.RadixTip;
      return module.RadixTip;
    },
    (error: unknown) => {
      // A failed load (a deploy replaced the chunk, the network dropped) is retried by the next tooltip.
      loading = null;
      throw error;
    },
  );
  return loading;
}

// Fetched as soon as a page that has tooltips is loaded, beside the page's own requests: by the
// time its controls render (after their data) the tooltip is there and the control renders inside
// it from the start. A control rendered before that mounts once more when it arrives.
void loadTip().catch(() => undefined);

/**
 * A real tooltip for a control that shows an icon rather than words (or words that need more):
 * shown on hover after the app's delay (700 ms, 300 ms to move between tooltips) and at once on
 * keyboard focus, dismissed with Escape. The control keeps its own accessible name; the tooltip
 * repeats what it does for those who see only the icon.
 */
export function Tip(props: TipProps) {
  const [Loaded, setLoaded] = useState<TipComponent | null>(() => loaded);
  useEffect(() => {
    if (Loaded !== null) return undefined;
    let live = true;
    loadTip().then(
      (component) => {
        if (live) setLoaded(() => component);
      },
      () => {
        // The control works without its tooltip.
      },
    );
    return () => {
      live = false;
    };
  }, [Loaded]);
  return Loaded === null ? props.children : <Loaded {...props} />;
}
