import { z } from 'zod';

/** Every non-2xx JSON answer of the API. `errorId` appears on 5xx only, to quote in a bug report. */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  errorId: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;
