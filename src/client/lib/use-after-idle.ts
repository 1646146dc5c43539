import { useEffect, useState } from 'react';

/**
 * Runs `callback` once the browser is idle (at most `timeoutMs` later), or after `fallbackMs` where
 * there is no requestIdleCallback; answers a function that cancels it.
 */
export function whenIdle(callback: () => void, { timeoutMs, fallbackMs }: { timeoutMs: number; fallbackMs: number }): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(callback, { timeout: timeoutMs });
    return () => {
      window.cancelIdleCallback(handle);
    };
  }
  const timer = setTimeout(callback, fallbackMs);
  return () => {
    clearTimeout(timer);
  };
}

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
    let cancelIdle: (() => void) | undefined;
    const timer = setTimeout(() => {
      cancelIdle = whenIdle(done, { timeoutMs, fallbackMs: 0 });
    }, afterMs);
    return () => {
      clearTimeout(timer);
      cancelIdle?.();
    };
  }, [afterMs, timeoutMs]);
  return idle;
}
