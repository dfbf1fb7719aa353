import * as z from 'zod';
import { strategyUsageSchema } from '../features/schemas.js';
import { isoDateTime, urlFriendlyName } from '../http/schemas.js';

const legalValueSchema = z.object({
  value: z.string().min(1).max(100),
  description: z.string().max(500).optional(),
});

const contextFieldFields = {
  description: z.string().max(250).nullish(),
  legalValues: z
    .array(legalValueSchema)
    .refine((values) => new Set(values.map((legal) => legal.value)).size === values.length, {
      error: 'each legal value may appear only once',
    })
    .optional(),
  stickiness: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
};

export const contextFieldCreateSchema = z.object({ name: urlFriendlyName, ...contextFieldFields });

/** PUT replaces the field's details; the name comes from the path (a different one is refused). */
export const contextFieldUpdateSchema = z.object({ name: z.string().optional(), ...contextFieldFields });

export const contextFieldSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  stickiness: z.boolean(),
  sortOrder: z.number(),
  legalValues: z.array(z.object({ value: z.string(), description: z.string().optional() })),
  createdAt: isoDateTime,
  /** The project whose own field it is; absent for the instance's fields. */
  project: z.string().optional(),
});

/** A listed field, with how many flags (not archived) and projects test it in a constraint. */
export const contextFieldListItemSchema = contextFieldSchema.extend({
  usedInFeatures: z.number().int().min(0),
  usedInProjects: z.number().int().min(0),
});

export const contextFieldListSchema = z.array(contextFieldListItemSchema);

/** `include=project` adds every project's own fields to the instance's (the UI's flag pages ask for it). */
export const contextFieldRootQuerySchema = z.object({
  include: z.string().max(100).optional().transform((include) => /^project$/i.test(include ?? '')),
});

/** POST …/context/validate: a name to create. */
export const contextFieldNameSchema = z.object({ name: urlFriendlyName });

/** `include=root` (any case, as Unleash matches it) adds the instance's fields to a project's. */
export const contextFieldScopeQuerySchema = z.object({
  include: z.string().max(100).optional().transform((include) => /^root$/i.test(include ?? '')),
});

/** GET /api/admin/context/{name}/strategies: the strategies whose constraints test the field. */
export const contextFieldStrategiesSchema = z.object({ strategies: z.array(strategyUsageSchema) });
