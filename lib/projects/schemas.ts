import * as z from 'zod';
import { PROJECT_MODES } from './model.js';
import { isoDateTime, urlFriendlyName } from '../http/schemas.js';
import { constraintSchema } from '../features/constraint-schemas.js';
import { featureSchema } from '../features/schemas.js';
import { defaultStrategySchema } from '../environments/schemas.js';

export { defaultStrategySchema };

// ── requests ────────────────────────────────────────────────────────────────

const featureNamingInput = z.object({
  pattern: z.string().max(500).nullish(),
  example: z.string().max(100).nullish(),
  description: z.string().max(1000).nullish(),
});

const settingsFields = {
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1000).nullish(),
  mode: z.enum(PROJECT_MODES).optional(),
  defaultStickiness: z.string().min(1).max(100).optional(),
  featureLimit: z.number().int().min(0).nullish(),
  featureNaming: featureNamingInput.nullish(),
};

export const projectCreateSchema = z.object({
  id: urlFriendlyName,
  ...settingsFields,
  environments: z.array(z.string().min(1).max(100)).max(100).optional(),
});

/** PUT replaces the settings; a left-out one returns to its default. */
export const projectUpdateSchema = z.object(settingsFields);

export const projectEnvironmentSchema = z.object({ environment: z.string().min(1).max(100) });

/** E8 lists the archived features instead with `?archived=true`, as Unleash does. */
export const projectOverviewQuerySchema = z.object({
  archived: z.enum(['true', 'false']).optional().transform((archived) => archived === 'true'),
});

/** Parameters are strings on the wire to SDKs; numbers and booleans are accepted and turned into text. */
const parameterValue = z.union([z.string(), z.number(), z.boolean()]).transform((value) => String(value));

export const defaultStrategyInputSchema = z.object({
  name: z.string().min(1).max(100),
  title: z.string().max(255).nullish(),
  constraints: z.array(constraintSchema).optional(),
  parameters: z.record(z.string(), parameterValue).optional(),
});

// ── responses ───────────────────────────────────────────────────────────────

const featureNamingSchema = z.object({
  pattern: z.string().nullable(),
  example: z.string().nullable(),
  description: z.string().nullable(),
});

const projectCore = {
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  mode: z.enum(PROJECT_MODES),
  defaultStickiness: z.string(),
  featureLimit: z.number().nullable(),
  createdAt: isoDateTime,
};

export const projectListItemSchema = z.object({
  ...projectCore,
  health: z.number().int().min(0).max(100),
  /** 100 minus health, as the 7.6 admin UI's project cards read it. */
  technicalDebt: z.number().int().min(0).max(100),
  featureCount: z.number().int(),
  memberCount: z.number().int(),
  updatedAt: isoDateTime.nullable(),
  favorite: z.boolean(),
});

export const projectListSchema = z.object({ version: z.literal(1), projects: z.array(projectListItemSchema) });

/** The answer to a create: the project's settings and the environments it got. */
export const projectCreatedSchema = z.object({
  ...projectCore,
  featureNaming: featureNamingSchema,
  environments: z.array(z.string()),
});

/** E8's activity figures over the last 30 days ("current") and the 30 before ("past"). */
export const projectStatsSchema = z.object({
  avgTimeToProdCurrentWindow: z.number(),
  createdCurrentWindow: z.number().int(),
  createdPastWindow: z.number().int(),
  archivedCurrentWindow: z.number().int(),
  archivedPastWindow: z.number().int(),
  projectActivityCurrentWindow: z.number().int(),
  projectActivityPastWindow: z.number().int(),
  projectMembersAddedCurrentWindow: z.number().int(),
});

/** E8, the deprecated overview. */
export const projectOverviewSchema = z.object({
  stats: projectStatsSchema,
  version: z.literal(1),
  name: z.string(),
  description: z.string().nullable(),
  mode: z.enum(PROJECT_MODES),
  defaultStickiness: z.string(),
  featureLimit: z.number().nullable(),
  featureNaming: featureNamingSchema,
  members: z.number().int(),
  health: z.number().int().min(0).max(100),
  environments: z.array(z.object({ environment: z.string(), defaultStrategy: defaultStrategySchema.optional() })),
  features: z.array(featureSchema),
  createdAt: isoDateTime.nullable(),
  updatedAt: isoDateTime.nullable(),
  favorite: z.boolean(),
});

/**
 * GET /api/admin/projects/{projectId}/overview, the project page's header in Unleash's admin UI:
 * E8's settings and stats without the features, with how many features of each type it has.
 */
export const projectSummarySchema = projectOverviewSchema.omit({ features: true }).extend({
  linkTemplates: z.array(z.object({ title: z.string().nullable(), urlTemplate: z.string() })),
  technicalDebt: z.number().int().min(0).max(100),
  featureTypeCounts: z.array(z.object({ type: z.string(), count: z.number().int() })),
  archivedAt: isoDateTime.nullable(),
  onboardingStatus: z.discriminatedUnion('status', [
    z.object({ status: z.enum(['onboarding-started', 'onboarded']) }),
    z.object({ status: z.literal('first-flag-created'), feature: z.string() }),
  ]),
});
