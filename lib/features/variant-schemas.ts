import * as z from 'zod';
import { urlFriendlyName } from '../http/schemas.js';

const payloadSchema = z
  .object({ type: z.enum(['json', 'csv', 'string', 'number']), value: z.string() })
  .refine((payload) => payload.type !== 'json' || isJson(payload.value), {
    error: 'must hold valid JSON text when type is json',
    path: ['value'],
  })
  .refine((payload) => payload.type !== 'number' || Number.isFinite(Number(payload.value)), {
    error: 'must be a number when type is number',
    path: ['value'],
  });

/** A strategy-level variant: integer weight 0–1000, `fix` or `variable`. */
export const strategyVariantSchema = z.object({
  name: urlFriendlyName,
  weight: z.number().int().min(0).max(1000),
  weightType: z.enum(['variable', 'fix']),
  stickiness: z.string().optional().transform((stickiness) => stickiness || 'default'),
  payload: payloadSchema.optional(),
});

/**
 * A feature-level variant. Unleash drops a variant sent without `weightType`; defaulting to
 * `variable` keeps what the user sent instead.
 */
export const variantSchema = z.object({
  name: urlFriendlyName,
  weight: z.number().min(0).max(1000).default(0),
  weightType: z.enum(['variable', 'fix']).default('variable'),
  stickiness: z.string().optional().transform((stickiness) => stickiness || 'default'),
  payload: payloadSchema.optional(),
  overrides: z.array(z.object({ contextName: z.string().min(1).max(100), values: z.array(z.string().max(1000)).max(1000) })).max(100).default([]),
});
export type VariantInput = z.infer<typeof variantSchema>;

export const variantListSchema = z.array(variantSchema);

/** PUT …/variants-batch: one list for several environments (the admin UI's "copy to environments"). */
export const variantsInEnvironmentsSchema = z.object({
  variants: variantListSchema.default([]),
  environments: z.array(z.string().min(1).max(100)).min(1, { error: 'No environments provided' }).max(100),
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
