import { useCallback, useState } from 'react';

/**
 * False until the element comes within `margin` of the window (scrolled to, or the window grown
 * to reach it), then true for good: for heavy content below the fold that need not be drawn while
 * the page loads. Where there is no IntersectionObserver it is true at once.
 */
export function useNearViewport(margin: string): [(element: Element | null) => (() => void) | undefined, boolean] {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  const ref = useCallback(
    (element: Element | null) => {
      if (element === null || near) return undefined;
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) {
            setNear(true);
            observer.disconnect();
          }
        },
        { rootMargin: margin },
      );
      observer.observe(element);
      return () => {
        observer.disconnect();
      };
    },
    [margin, near],
  );
  return [ref, near];
}
