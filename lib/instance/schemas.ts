import * as z from 'zod';

export const healthSchema = z.object({ health: z.literal('GOOD') });

const versionPair = z.object({ oss: z.string(), enterprise: z.string() });

/** Unleash 7.6's resourceLimitsSchema: every limit its admin UI checks before it offers to add one more. */
export const resourceLimitsSchema = z.object({
  segmentValues: z.number(),
  strategySegments: z.number(),
  actionSetActions: z.number(),
  actionSetsPerProject: z.number(),
  actionSetFilters: z.number(),
  actionSetFilterValues: z.number(),
  signalEndpoints: z.number(),
  signalTokensPerEndpoint: z.number(),
  featureEnvironmentStrategies: z.number(),
  constraintValues: z.number(),
  constraints: z.number(),
  environments: z.number(),
  apiTokens: z.number(),
  projects: z.number(),
  segments: z.number(),
  featureFlags: z.number(),
  releaseTemplates: z.number(),
});

/** E16: the UI configuration. */
export const uiConfigSchema = z.object({
  slogan: z.string().optional(),
  name: z.string().optional(),
  version: z.string(),
  environment: z.string().optional(),
  unleashUrl: z.string(),
  baseUriPath: z.string(),
  feedbackUriPath: z.string().optional(),
  disablePasswordAuth: z.boolean().optional(),
  emailEnabled: z.boolean().optional(),
  maintenanceMode: z.boolean().optional(),
  segmentValuesLimit: z.number().optional(),
  strategySegmentsLimit: z.number().optional(),
  resourceLimits: resourceLimitsSchema.optional(),
  networkViewEnabled: z.boolean().optional(),
  frontendApiOrigins: z.array(z.string()).optional(),
  flags: z.record(z.string(), z.union([z.boolean(), z.object({ name: z.string(), enabled: z.boolean() })])).optional(),
  links: z.array(z.object({ value: z.string(), icon: z.string(), href: z.string(), title: z.string() })).optional(),
  authenticationType: z.enum(['open-source', 'demo', 'enterprise', 'hosted', 'custom', 'none']).optional(),
  versionInfo: z.object({
    current: versionPair,
    latest: versionPair.partial(),
    isLatest: z.boolean(),
    instanceId: z.string(),
  }),
});
export type UiConfigWire = z.infer<typeof uiConfigSchema>;
