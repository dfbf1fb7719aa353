import * as z from 'zod';
import { urlFriendlyName } from '../http/schemas.js';
import { constraintSchema } from '../features/constraint-schemas.js';
import { strategyVariantSchema, variantSchema } from '../features/variant-schemas.js';

/**
 * E3's body: the environment and one selector — `features` (an empty list means all),
 * `tag` (a tag value), or `project`. With none, every active feature is exported.
 */
export const exportRequestSchema = z.object({
  environment: z.string().min(1).max(100),
  downloadFile: z.boolean().optional(),
  features: z.array(z.string().min(1).max(100)).max(1000).optional(),
  tag: z.string().min(1).max(100).optional(),
  project: z.string().min(1).max(100).optional(),
});

const exportedFeature = z.object({
  name: urlFriendlyName,
  description: z.string().nullish(),
  type: z.string().min(1).default('release'),
  project: z.string().optional(),
  stale: z.boolean().default(false),
  impressionData: z.boolean().default(false),
  archived: z.boolean().default(false),
});

const exportedStrategy = z.object({
  name: z.string().min(1),
  id: z.string().optional(),
  featureName: z.string().min(1),
  title: z.string().nullish(),
  parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).default({}),
  constraints: z.array(constraintSchema).default([]),
  variants: z.array(strategyVariantSchema).default([]),
  sortOrder: z.number().int().optional(),
  disabled: z.boolean().nullish(),
  segments: z.array(z.number().int()).default([]),
});

const exportedEnvironment = z.object({
  enabled: z.boolean(),
  featureName: z.string().min(1),
  environment: z.string().optional(),
  variants: z.array(variantSchema).default([]),
  name: z.string().optional(),
});

const exportedContextField = z.object({
  name: urlFriendlyName,
  description: z.string().nullish(),
  stickiness: z.boolean().default(false),
  sortOrder: z.number().optional(),
  legalValues: z.array(z.object({ value: z.string().min(1).max(100), description: z.string().optional() })).default([]),
});

const exportedDependency = z.object({
  feature: z.string().min(1),
  dependencies: z.array(z.object({ feature: z.string().min(1), enabled: z.boolean().default(true), variants: z.array(z.string()).default([]) })),
});

/** The Export result, and the `data` an import takes. */
export const exportResultSchema = z.object({
  features: z.array(exportedFeature),
  featureStrategies: z.array(exportedStrategy),
  featureEnvironments: z.array(exportedEnvironment).default([]),
  contextFields: z.array(exportedContextField).default([]),
  featureTags: z.array(z.object({ featureName: z.string(), tagType: z.string().default('simple'), tagValue: z.string() })).default([]),
  segments: z.array(z.object({ id: z.number().int(), name: z.string() })).default([]),
  tagTypes: z.array(z.object({ name: z.string(), description: z.string().nullish(), icon: z.string().nullish() })),
  dependencies: z.array(exportedDependency).default([]),
});
export type ExportResult = z.input<typeof exportResultSchema>;
export type ImportData = z.output<typeof exportResultSchema>;

export const importRequestSchema = z.strictObject({
  project: z.string().min(1).max(100),
  environment: z.string().min(1).max(100),
  data: exportResultSchema,
});

export const importValidationSchema = z.object({
  errors: z.array(z.object({ message: z.string(), affectedItems: z.array(z.string()) })),
  warnings: z.array(z.object({ message: z.string(), affectedItems: z.array(z.string()) })),
  permissions: z.array(z.object({ message: z.string(), affectedItems: z.array(z.string()) })),
});
