import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { assertAllRequestsHandled } from './mock-fetch';
import { resetToasts } from './render';

declare global {
  // React reads this flag to decide whether updates outside act() deserve a warning.
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

// Testing Library sets the flag and cleans up by itself only when test globals are on; they are off here.
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  cleanup();
  resetToasts();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  assertAllRequestsHandled();
});
