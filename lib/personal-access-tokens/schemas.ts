import * as z from 'zod';

/** Unleash's createPatSchema. */
export const createPatSchema = z.object({
  description: z.string(),
  expiresAt: z.iso.datetime({ offset: true }),
});

/** Unleash's patSchema: `secret` only in the answer to a create. */
export const patSchema = z.object({
  id: z.number().int().min(1),
  description: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
  seenAt: z.string().nullable(),
  userId: z.number().int(),
  secret: z.string().optional(),
});

/** Unleash's patsSchema. */
export const patsSchema = z.object({ pats: z.array(patSchema) });
