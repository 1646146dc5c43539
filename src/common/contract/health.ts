import { z } from 'zod';
import { ERROR_CODES } from '../api/error-codes.js';
import { healthRoutes } from '../api/health.js';

/**
 * 200 while the instance serves: `ok`, or `degraded` when it serves reads but cannot write (the
 * disk under its database is full), with the reason. 503 while it should get no traffic: the
 * database cannot be reached, or the instance is shutting down.
 */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  /** Why the instance is degraded; absent when it is ok. */
  reason: z.string().optional(),
  database: z.object({
    dialect: z.enum(['sqlite', 'postgres']),
    roundTripMs: z.number().nonnegative(),
  }),
  uptimeSeconds: z.number().nonnegative(),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const healthUnavailableSchema = z.object({
  status: z.enum(['unavailable', 'draining']),
  message: z.string(),
  code: z.enum([ERROR_CODES.databaseUnavailable, ERROR_CODES.shuttingDown]),
});
export type HealthUnavailable = z.infer<typeof healthUnavailableSchema>;

export const healthContract = { ...healthRoutes.get, response: { 200: healthResponseSchema, 503: healthUnavailableSchema } } as const;
