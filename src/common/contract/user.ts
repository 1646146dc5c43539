import { z } from 'zod';

export const roleSchema = z.enum(['member', 'admin']);

/** What the signed-in member may do beyond reviewing, from the server's policies: the client only reads it. */
export const userPermissionsSchema = z.object({ canAdminister: z.boolean(), canDecide: z.boolean() });

/** The signed-in member, plus the role the server decides (the client never asserts it) and what it allows. */
export const currentUserSchema = z.object({
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  role: roleSchema,
  permissions: userPermissionsSchema,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;
