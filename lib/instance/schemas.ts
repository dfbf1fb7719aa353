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

/** Unleash's instanceAdminStatsSchema, as far as this service keeps the figures. */
export const instanceStatisticsSchema = z.object({
  instanceId: z.string(),
  timestamp: z.string(),
  versionOSS: z.string(),
  versionEnterprise: z.string(),
  users: z.number().int(),
  serviceAccounts: z.number().int(),
  apiTokens: z.record(z.string(), z.number().int()),
  featureToggles: z.number().int(),
  projects: z.number().int(),
  contextFields: z.number().int(),
  roles: z.number().int(),
  customRootRoles: z.number().int(),
  customRootRolesInUse: z.number().int(),
  groups: z.number().int(),
  environments: z.number().int(),
  segments: z.number().int(),
  strategies: z.number().int(),
  SAMLenabled: z.boolean(),
  OIDCenabled: z.boolean(),
  clientApps: z.array(z.object({ range: z.string(), count: z.number().int() })),
  activeUsers: z.object({ last7: z.number().int(), last30: z.number().int(), last60: z.number().int(), last90: z.number().int() }),
  sum: z.string(),
});

/** Unleash's telemetrySettingsSchema. */
export const telemetrySettingsSchema = z.object({ versionInfoCollectionEnabled: z.boolean(), featureInfoCollectionEnabled: z.boolean() });

/** What the UI reports of an error it met (Unleash's recordUiErrorSchema). */
export const uiErrorSchema = z.object({ errorMessage: z.string().max(10_000), errorStack: z.string().max(50_000).optional() });
