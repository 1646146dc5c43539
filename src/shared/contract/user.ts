import { z } from 'zod';

export const roleSchema = z.enum(['member', 'admin']);

/** Spec section 3 'Current user', plus the server-decided role (ARCHITECTURE.md 4.1). */
export const currentUserSchema = z.object({
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  role: roleSchema,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;
