import { z } from 'zod';
import { ERROR_CODES } from '../api/error-codes.js';
import { healthRoutes } from '../api/health.js';

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.object({
    dialect: z.enum(['sqlite', 'postgres']),
    roundTripMs: z.number().nonnegative(),
  }),
  uptimeSeconds: z.number().nonnegative(),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const healthUnavailableSchema = z.object({
  status: z.literal('unavailable'),
  message: z.string(),
  code: z.literal(ERROR_CODES.databaseUnavailable),
});
export type HealthUnavailable = z.infer<typeof healthUnavailableSchema>;

export const healthContract = { ...healthRoutes.get, response: { 200: healthResponseSchema, 503: healthUnavailableSchema } } as const;
