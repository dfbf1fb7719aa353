import * as z from 'zod';
import { userSchema } from '../users/schemas.js';

/** E1/E4's request form. `users` left out means no members: the body replaces the group. */
export const groupInputSchema = z.object({
  name: z.string().max(255),
  description: z.string().max(1000).nullish(),
  mappingsSSO: z.array(z.string()).optional(),
  rootRole: z.int().nullish(),
  users: z.array(z.object({ user: z.object({ id: z.int() }) })).optional(),
});
export type GroupInputWire = z.infer<typeof groupInputSchema>;

export const groupSchema = z.object({
  id: z.int(),
  name: z.string(),
  description: z.string().nullable(),
  mappingsSSO: z.array(z.string()),
  rootRole: z.int().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string().nullable(),
  projects: z.array(z.string()),
  userCount: z.int(),
  users: z.array(z.object({ joinedAt: z.string(), createdBy: z.string(), user: userSchema })),
});
export type GroupWire = z.infer<typeof groupSchema>;

export const groupListSchema = z.object({ groups: z.array(groupSchema) });
