import * as z from 'zod';
import { CONSTRAINT_OPERATORS } from './model.js';
import { isoDateTime, urlFriendlyName } from '../http/schemas.js';
import { constraintSchema } from './constraint-schemas.js';
import { strategyVariantSchema } from './variant-schemas.js';
import { COMPLETION_STATUSES, LIFECYCLE_STAGES } from './rules/lifecycle.js';

// ── requests ────────────────────────────────────────────────────────────────

export const tagSchema = z.object({
  value: z.string().trim().min(2).max(50),
  type: urlFriendlyName.pipe(z.string().min(2).max(50)).default('simple'),
});

export const featureCreateSchema = z.object({
  name: urlFriendlyName,
  type: z.string().min(1).max(100).optional(),
  description: z.string().max(2000).nullish(),
  impressionData: z.boolean().optional(),
  /** The admin UI's create dialog sends the tags chosen in it. */
  tags: z.array(tagSchema).max(100).optional(),
});

/**
 * POST …/features/{featureName}/clone: the new feature's name, and whether its strategies'
 * `groupId` becomes that name (the default, as in Unleash).
 */
export const featureCloneSchema = z.object({
  name: urlFriendlyName,
  replaceGroupId: z.boolean().optional(),
});

/** PUT of a feature's metadata; a `name` that differs from the path is refused. */
export const featureUpdateSchema = z.object({
  name: z.string().optional(),
  type: z.string().min(1).max(100).optional(),
  description: z.string().max(2000).nullish(),
  stale: z.boolean().optional(),
  impressionData: z.boolean().optional(),
  archived: z.boolean().optional(),
});

/** Strategy parameters are strings on the wire to SDKs; numbers and booleans are accepted and turned into text. */
const parameterValue = z.union([z.string(), z.number(), z.boolean()]).transform((value) => String(value));

export const strategyInputSchema = z.object({
  name: z.string().min(1).max(100),
  title: z.string().max(255).nullish(),
  disabled: z.boolean().nullish().transform((disabled) => disabled ?? false),
  sortOrder: z.number().int().optional(),
  constraints: z.array(constraintSchema).default([]),
  parameters: z.record(z.string(), parameterValue).default({}),
  variants: z.array(strategyVariantSchema).default([]),
  segments: z.array(z.number().int().positive()).default([]),
});

/** POST …/strategies/set-sort-order: a new sort order for each named strategy. */
export const strategySortOrderSchema = z.array(z.object({ id: z.string().min(1).max(100), sortOrder: z.number().int() })).max(1000);

/** Names are at most 100 characters; a batch call is refused past its own limit in any case. */
const featureNames = z.array(z.string().max(100)).max(1000);
export const staleSchema = z.object({ features: featureNames, stale: z.boolean() });
export const archiveSchema = z.object({ features: featureNames });

/** POST /api/admin/features/validate: a name to create, in the project whose naming pattern applies. */
export const featureNameCheckSchema = z.object({ name: urlFriendlyName, projectId: z.string().max(100).nullish() });

export const tagsUpdateSchema = z.strictObject({ addedTags: z.array(tagSchema), removedTags: z.array(tagSchema) });

export const dependencyInputSchema = z.object({
  feature: z.string().min(1).max(100),
  enabled: z.boolean().optional(),
  variants: z.array(z.string()).optional(),
});

// ── responses ───────────────────────────────────────────────────────────────

/** A constraint as answered, to admins and SDKs alike. */
export const wireConstraint = z.object({
  contextName: z.string(),
  operator: z.enum(CONSTRAINT_OPERATORS),
  values: z.array(z.string()),
  value: z.string().optional(),
  caseInsensitive: z.boolean(),
  inverted: z.boolean(),
});

const wirePayload = z.object({ type: z.string(), value: z.string() });

export const wireStrategyVariant = z.object({
  name: z.string(), weight: z.number(), weightType: z.string(), stickiness: z.string(), payload: wirePayload.optional(),
});

export const wireVariant = wireStrategyVariant.extend({
  overrides: z.array(z.object({ contextName: z.string(), values: z.array(z.string()) })),
});

export const featureStrategySchema = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  disabled: z.boolean(),
  featureName: z.string(),
  sortOrder: z.number(),
  segments: z.array(z.number()),
  constraints: z.array(wireConstraint),
  variants: z.array(wireStrategyVariant),
  parameters: z.record(z.string(), z.string()),
});

/** GET …/environments/{environment}: the feature in one environment, as Unleash's getFeatureEnvironment answers. */
export const featureEnvironmentInfoSchema = z.object({
  name: z.string(),
  environment: z.string(),
  enabled: z.boolean(),
  strategies: z.array(featureStrategySchema),
});

/** An item of the lists of strategies that use a segment or a context field. */
export const strategyUsageSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  featureName: z.string(),
  strategyName: z.string(),
  environment: z.string(),
});

export const featureEnvironmentSchema = z.object({
  name: z.string(),
  featureName: z.string(),
  environment: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  sortOrder: z.number(),
  variantCount: z.number(),
  strategies: z.array(featureStrategySchema),
  variants: z.array(wireVariant),
  lastSeenAt: z.string().nullable(),
  hasStrategies: z.boolean(),
  hasEnabledStrategies: z.boolean(),
});

export const wireTag = z.object({ value: z.string(), type: z.string() });

/** A lifecycle stage as Unleash answers it (`status` on `completed` only). */
export const lifecycleStageSchema = z.object({
  stage: z.enum(LIFECYCLE_STAGES),
  status: z.enum(COMPLETION_STATUSES).optional(),
  enteredStageAt: isoDateTime,
});

export const wireFeatureLink = z.object({ id: z.string(), url: z.string(), title: z.string().nullable(), feature: z.string() });

export const wireDependency = z.object({ feature: z.string(), enabled: z.boolean(), variants: z.array(z.string()) });

export const featureSchema = z.object({
  name: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  archived: z.boolean(),
  project: z.string(),
  enabled: z.boolean(),
  stale: z.boolean(),
  favorite: z.boolean(),
  impressionData: z.boolean(),
  createdAt: isoDateTime.nullable(),
  /** Who created it; absent for a flag created before creators were recorded. */
  createdBy: z.object({ id: z.number().int(), name: z.string(), imageUrl: z.string() }).optional(),
  archivedAt: isoDateTime.nullable(),
  lastSeenAt: z.string().nullable(),
  environments: z.array(featureEnvironmentSchema),
  variants: z.array(wireVariant),
  strategies: z.array(featureStrategySchema),
  tags: z.array(wireTag).nullable(),
  children: z.array(z.string()),
  dependencies: z.array(wireDependency),
  /** The stage the flag is in: the furthest it entered. */
  lifecycle: lifecycleStageSchema,
  links: z.array(wireFeatureLink),
});
export type FeatureWire = z.input<typeof featureSchema>;

export const featureListSchema = z.object({ version: z.number(), features: z.array(featureSchema) });

/** A feature type; `lifetimeDays` null (or 0) means a feature of this type is meant to stay. */
export const featureTypeSchema = z.object({ id: z.string(), name: z.string(), description: z.string(), lifetimeDays: z.number().int().min(0).nullable() });

export const featureTypeListSchema = z.object({ version: z.literal(1), types: z.array(featureTypeSchema) });

/** PUT …/feature-types/{type}/lifetime: whole days, as Unleash's schema bounds them. */
export const featureTypeLifetimeSchema = z.object({ lifetimeDays: z.number().int().min(0).max(2_147_483_647).nullable() });

/** The project feature list's items: the overview without strategies. */
export const projectFeatureItemSchema = featureSchema
  .pick({ name: true, type: true, description: true, createdAt: true, lastSeenAt: true, stale: true, impressionData: true, favorite: true, tags: true })
  .extend({ environments: z.array(featureEnvironmentSchema.omit({ strategies: true, variants: true, featureName: true, environment: true })) });

export const projectFeatureListSchema = z.object({ version: z.literal(2), features: z.array(projectFeatureItemSchema) });

/** What archiving the named features would affect, as Unleash's archive dialog reads it. */
export const archiveValidationSchema = z.object({
  /** Some named feature has a parent or a child: archiving drops that dependency. */
  hasDeletedDependencies: z.boolean(),
  /** Named features with children that are not named: archiving is refused until those go too. */
  parentsWithChildFeatures: z.array(z.string()),
});

export const strategyListSchema = z.array(featureStrategySchema);
export const variantsResponseSchema = z.object({ version: z.number(), variants: z.array(wireVariant) });
export const tagListSchema = z.object({ version: z.literal(1), tags: z.array(wireTag) });

// ── lifecycle stages, links and the flag table's bulk actions ───────────────

/** POST …/lifecycle/complete: what became of the flag (Unleash's featureLifecycleCompletedSchema). */
export const featureCompletionSchema = z.strictObject({
  status: z.enum(COMPLETION_STATUSES),
  statusValue: z.string().max(255).optional(),
});

export const lifecycleStageListSchema = z.array(lifecycleStageSchema);

/** Flags per stage, the stage each entered last (archived flags too), as Unleash's lifecycle count. */
export const lifecycleCountSchema = z.object({
  initial: z.number().int(), preLive: z.number().int(), live: z.number().int(), completed: z.number().int(), archived: z.number().int(),
});

/** A flag link as written: `url` without a scheme gets `https://`. */
export const featureLinkInputSchema = z.object({
  url: z.string().trim().min(1).max(2000),
  title: z.string().max(250).nullish(),
});


/** Most flags one bulk call of the project's flag table changes (the table pages by 100 at most, twice over). */
export const BULK_FEATURES = 200;

/** The selected flags of the project's flag table; the UI sends at most a page of them. */
export const bulkFeaturesSchema = z.object({ features: z.array(z.string().min(1).max(100)).min(1).max(BULK_FEATURES) });

/** `?shouldActivateDisabledStrategies=true` switches a flag's disabled strategies on instead of adding one. */
export const bulkSwitchQuerySchema = z.object({
  shouldActivateDisabledStrategies: z.enum(['true', 'false']).optional().transform((value) => value === 'true'),
});

/** PUT /api/admin/projects/{projectId}/tags: tags added to and removed from each selected flag. */
export const bulkTagsSchema = bulkFeaturesSchema.extend({ tags: tagsUpdateSchema });
