import { z } from 'zod';

export const roleSchema = z.enum(['member', 'admin']);

/** The signed-in member, plus the role the server decides (the client never asserts it). */
export const currentUserSchema = z.object({
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  role: roleSchema,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;
