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

/** Unleash's personalDashboardProjectDetailsSchema; an event's id is this service's (a UUID, where Unleash counts). */
export const personalDashboardProjectSchema = z.object({
  owners: z.union([z.array(z.union([userOwner, groupOwner])).min(1), z.tuple([z.object({ ownerType: z.literal('system') })])]),
  roles: z.array(z.object({ id: z.number().int(), name: z.string(), type: z.enum(['custom', 'project']) })),
  latestEvents: z.array(z.object({ id: z.string(), summary: z.string().nullable(), createdBy: z.string(), createdByImageUrl: z.string(), createdAt: z.string() })),
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
