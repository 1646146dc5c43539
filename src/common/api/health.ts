import type { HealthResponse } from '../contract/health.js';
import { defineRoute } from './route.js';

export const healthRoutes = {
  get: defineRoute<{ response: HealthResponse }>()('GET', '/api/health'),
} as const;
