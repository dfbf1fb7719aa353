import * as z from 'zod';
import { urlFriendlyName } from '../http/schemas.js';

export const STRATEGY_PARAMETER_TYPES = ['string', 'percentage', 'list', 'number', 'boolean'] as const;

export const strategyParameterSchema = z.object({
  name: z.string().min(1).max(100),
  type: z.enum(STRATEGY_PARAMETER_TYPES),
  description: z.string().optional(),
  required: z.boolean().optional(),
});

/**
 * E2's request. As in Unleash, `editable` and `deprecated` are accepted but ignored:
 * a created type is always editable and active (deprecate it with E21).
 */
export const strategyTypeInputSchema = z.object({
  name: urlFriendlyName,
  title: z.string().nullish(),
  description: z.string().nullish(),
  editable: z.boolean().optional(),
  deprecated: z.boolean().optional(),
  parameters: z.array(strategyParameterSchema),
});
export type StrategyTypeInput = z.infer<typeof strategyTypeInputSchema>;

/** PUT replaces a custom type's details; the name comes from the path. */
export const strategyTypeUpdateSchema = strategyTypeInputSchema.extend({ name: urlFriendlyName.optional() });
export type StrategyTypeUpdate = z.infer<typeof strategyTypeUpdateSchema>;

export const strategyTypeSchema = z.object({
  title: z.string().nullable(),
  name: z.string(),
  displayName: z.string().nullable(),
  description: z.string().nullable(),
  editable: z.boolean(),
  deprecated: z.boolean(),
  parameters: z.array(
    z.object({ name: z.string(), type: z.string(), description: z.string(), required: z.boolean() }),
  ),
});
export type StrategyTypeWire = z.infer<typeof strategyTypeSchema>;

export const strategyTypeListSchema = z.object({
  version: z.literal(1),
  strategies: z.array(strategyTypeSchema),
});

export const strategyNameParams = z.object({ name: z.string() });
