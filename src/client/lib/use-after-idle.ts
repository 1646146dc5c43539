import { useEffect, useState } from 'react';

/**
 * False until `afterMs` have passed since mount and the browser is then idle (at most `timeoutMs`
 * later; a plain timer where there is no requestIdleCallback), then true: for work that must not
 * compete with the first page. Idle alone comes too soon: the browser is idle whenever the page
 * waits for the network, so between the page's own requests.
 */
export function useAfterIdle({ afterMs = 0, timeoutMs = 3000 }: { afterMs?: number; timeoutMs?: number } = {}): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const done = () => {
      setIdle(true);
    };
    let idleHandle: number | undefined;
    const timer = setTimeout(() => {
      if (typeof window.requestIdleCallback === 'function') idleHandle = window.requestIdleCallback(done, { timeout: timeoutMs });
      else done();
    }, afterMs);
    return () => {
      clearTimeout(timer);
      if (idleHandle !== undefined) window.cancelIdleCallback(idleHandle);
    };
  }, [afterMs, timeoutMs]);
  return idle;
}
