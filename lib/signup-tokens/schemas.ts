import * as z from 'zod';
import { isoDateTime } from '../http/schemas.js';
import { roleSchema, userSchema } from '../users/schemas.js';

export const signupTokenCreateSchema = z.object({
  name: z.string().trim().min(1).max(255),
  expiresAt: isoDateTime,
});

/** E20's body: extra keys are refused, as in Unleash; at least one field is needed (checked by the service). */
export const signupTokenUpdateSchema = z.strictObject({
  expiresAt: isoDateTime.optional(),
  enabled: z.boolean().optional(),
});

/** The interface's Public signup token. */
export const signupTokenSchema = z.object({
  secret: z.string(),
  url: z.string().nullable(),
  name: z.string(),
  enabled: z.boolean(),
  expiresAt: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  users: z.array(userSchema).nullable(),
  role: roleSchema,
});
export type SignupTokenWire = z.infer<typeof signupTokenSchema>;

export const signupTokenListSchema = z.object({ tokens: z.array(signupTokenSchema) });
