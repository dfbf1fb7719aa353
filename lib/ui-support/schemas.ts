import * as z from 'zod';

const userOwner = z.object({ ownerType: z.literal('user'), name: z.string(), imageUrl: z.string().nullable().optional(), email: z.string().nullable().optional() });
const groupOwner = z.object({ ownerType: z.literal('group'), name: z.string() });

/** Unleash's profileSchema. */
export const profileSchema = z.object({
  rootRole: z.object({ id: z.number().int(), type: z.string(), name: z.string(), description: z.string().optional() }),
  projects: z.array(z.string()),
  subscriptions: z.array(z.string()),
  features: z.array(z.object({ name: z.string(), project: z.string() })),
});

/** Unleash's personalDashboardSchema. */
export const personalDashboardSchema = z.object({
  projects: z.array(z.object({
    id: z.string(), name: z.string(), health: z.number().int(), technicalDebt: z.number().int(), memberCount: z.number().int(), featureCount: z.number().int(),
  })),
  flags: z.array(z.object({ name: z.string(), project: z.string(), type: z.string() })),
  admins: z.array(z.object({ id: z.number().int(), name: z.string().optional(), username: z.string().optional(), imageUrl: z.string().optional(), email: z.string().optional() })),
  projectOwners: z.array(z.union([userOwner, groupOwner])),
});

/** Unleash's personalDashboardProjectDetailsSchema. */
export const personalDashboardProjectSchema = z.object({
  owners: z.union([z.array(z.union([userOwner, groupOwner])).min(1), z.tuple([z.object({ ownerType: z.literal('system') })])]),
  roles: z.array(z.object({ id: z.number().int(), name: z.string(), type: z.enum(['custom', 'project']) })),
  latestEvents: z.array(z.object({ id: z.number().int(), summary: z.string().nullable(), createdBy: z.string(), createdByImageUrl: z.string(), createdAt: z.string() })),
  onboardingStatus: z.union([
    z.object({ status: z.enum(['onboarding-started', 'sdk-connected', 'onboarded']) }),
    z.object({ status: z.literal('first-flag-created'), feature: z.string() }),
  ]),
  insights: z.object({
    avgHealthCurrentWindow: z.number().int().nullable(),
    avgHealthPastWindow: z.number().int().nullable(),
    totalFlags: z.number().int(),
    activeFlags: z.number().int(),
    staleFlags: z.number().int(),
    potentiallyStaleFlags: z.number().int(),
    health: z.number().int(),
    technicalDebt: z.number().int().max(100),
  }),
});

const stage = z.object({ averageDays: z.number().nullable(), currentFlags: z.number().int() });

/** Unleash's projectStatusSchema. */
export const projectStatusSchema = z.object({
  activityCountByDate: z.array(z.object({ date: z.string(), count: z.number().int() })),
  resources: z.object({ members: z.number().int(), apiTokens: z.number().int(), segments: z.number().int() }),
  health: z.object({ current: z.number().int() }),
  technicalDebt: z.object({ current: z.number().int().max(100) }),
  lifecycleSummary: z.object({ initial: stage, preLive: stage, live: stage, completed: stage, archived: stage }),
  staleFlags: z.object({ total: z.number().int() }),
});

/** Unleash's projectFlagCreatorsSchema. */
export const flagCreatorsSchema = z.array(z.object({ id: z.number().int(), name: z.string() }));

export const outdatedSdksSchema = z.object({ sdks: z.array(z.object({ sdkVersion: z.string(), applications: z.array(z.string()) })) });

/** Unleash's instanceAdminStatsSchema, as far as this service keeps the figures. */
export const instanceStatisticsSchema = z.object({
  instanceId: z.string(),
  timestamp: z.string(),
  versionOSS: z.string(),
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

export const telemetrySettingsSchema = z.object({ versionInfoCollectionEnabled: z.boolean(), featureInfoCollectionEnabled: z.boolean() });

/** What the UI reports of an error it met (Unleash's recordUiErrorSchema). */
export const uiErrorSchema = z.object({ errorMessage: z.string().max(10_000), errorStack: z.string().max(50_000).optional() });
