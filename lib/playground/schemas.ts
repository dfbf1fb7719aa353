import * as z from 'zod';
import { clientFeatureSchema } from '../client/schemas.js';
import { wireConstraint } from '../features/schemas.js';

/** Names are at most 100 characters, as Unleash's. */
const name = z.string().min(1).max(100);
// `*` (every project) or a list of names; `maxLength` documents the bound on each name for the
// union as a whole (JSON Schema applies it to strings only).
const projects = z.union([z.literal('*'), z.array(name).max(1000)]).meta({ maxLength: 100 }).optional();

/**
 * Unleash's sdkContextSchema: `appName` is required; other fields are text, and a top-level field
 * that is not text is dropped and named in the answer's warnings, as Unleash does.
 */
const context = z.looseObject({
  appName: z.string().min(1),
  properties: z.record(z.string(), z.unknown()).optional(),
});

export const playgroundRequestSchema = z.object({ environment: name, projects, context });
export type PlaygroundRequest = z.output<typeof playgroundRequestSchema>;

export const advancedPlaygroundRequestSchema = z.object({
  environments: z.array(name.regex(/^[a-zA-Z0-9~_.-]+$/, { error: 'must be an environment name' })).min(1).max(100),
  projects,
  context,
});
export type AdvancedPlaygroundRequest = z.output<typeof advancedPlaygroundRequestSchema>;

const strategyVariants = clientFeatureSchema.shape.strategies.element.shape.variants;
const variantPayload = z.object({ type: z.string(), value: z.string() });
const evaluatedConstraint = wireConstraint.extend({ result: z.boolean() });

/** Unleash's playgroundStrategySchema. */
const strategySchema = z.object({
  name: z.string(),
  id: z.string(),
  title: z.string().optional(),
  disabled: z.boolean().nullable(),
  parameters: z.record(z.string(), z.string()),
  constraints: z.array(evaluatedConstraint),
  segments: z.array(z.object({ id: z.number().int(), name: z.string(), result: z.boolean(), constraints: z.array(evaluatedConstraint) })),
  result: z.object({
    enabled: z.union([z.boolean(), z.literal('unknown')]),
    evaluationStatus: z.enum(['complete', 'incomplete']),
    variant: z.object({ name: z.string(), enabled: z.boolean(), payload: variantPayload.optional() }).optional(),
    variants: strategyVariants.optional(),
  }),
  links: z.object({ edit: z.string() }),
});

/** Unleash's playgroundFeatureSchema. */
export const playgroundFeatureSchema = z.object({
  name: z.string(),
  projectId: z.string(),
  isEnabled: z.boolean(),
  isEnabledInCurrentEnvironment: z.boolean(),
  hasUnsatisfiedDependency: z.boolean(),
  strategies: z.object({ result: z.union([z.boolean(), z.literal('unknown')]), data: z.array(strategySchema) }),
  variant: z.object({ name: z.string(), enabled: z.boolean(), payload: variantPayload.optional(), feature_enabled: z.boolean() }),
  variants: clientFeatureSchema.shape.variants,
});

const flatContext = z.record(z.string(), z.string());

export const playgroundResponseSchema = z.object({
  input: playgroundRequestSchema,
  features: z.array(playgroundFeatureSchema),
});

export const advancedPlaygroundResponseSchema = z.object({
  input: advancedPlaygroundRequestSchema,
  features: z.array(z.object({
    name: z.string(),
    projectId: z.string(),
    environments: z.record(z.string(), z.array(playgroundFeatureSchema.extend({ environment: z.string(), context: flatContext }))),
  })),
  warnings: z.object({ invalidContextProperties: z.array(z.string()) }).optional(),
});

export type PlaygroundFeature = z.input<typeof playgroundFeatureSchema>;
export type PlaygroundStrategy = z.input<typeof strategySchema>;
