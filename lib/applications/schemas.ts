import * as z from 'zod';
import { isoDateTime } from '../http/schemas.js';
import { whole } from '../features/search-schemas.js';
import type { ApplicationSearch } from './service.js';

/** Unleash's page of applications: 50 unless asked, at most 1,000. */
const LIMITS = { defaultLimit: 50, maxLimit: 1000, maxOffset: 10_000_000 } as const;

/**
 * The query of Unleash's application lists. Unleash sorts by name whatever `sortBy` names (the
 * admin UI's project page asks for `createdAt`), so any field is taken and the name sorts.
 */
export const applicationSearchQuerySchema = z
  .object({
    query: z.string().max(1000).optional(),
    offset: whole(0, LIMITS.maxOffset).optional(),
    limit: whole(1, LIMITS.maxLimit).optional(),
    sortBy: z.string().max(100).optional(),
    sortOrder: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional(),
  })
  .transform((q): ApplicationSearch => ({
    query: q.query?.trim() || undefined,
    offset: q.offset ?? 0,
    limit: q.limit ?? LIMITS.defaultLimit,
    sortOrder: q.sortOrder ?? 'asc',
  }));

const usageSchema = z.object({ project: z.string(), environments: z.array(z.string()) });

/** Unleash's applicationSchema; description, url, color and icon are never set here (no admin edits). */
export const applicationSchema = z.object({
  appName: z.string(),
  sdkVersion: z.string().optional(),
  strategies: z.array(z.string()),
  description: z.string().optional(),
  url: z.string().optional(),
  color: z.string().optional(),
  icon: z.string().optional(),
  usage: z.array(usageSchema),
});

export const applicationsSchema = z.object({ applications: z.array(applicationSchema), total: z.number().int() });

export const applicationOverviewSchema = z.object({
  projects: z.array(z.string()),
  featureCount: z.number(),
  environments: z.array(z.object({
    name: z.string(),
    instanceCount: z.number(),
    sdks: z.array(z.string()),
    frontendSdks: z.array(z.string()),
    backendSdks: z.array(z.string()),
    lastSeen: isoDateTime.nullable(),
    issues: z.object({ missingFeatures: z.array(z.string()), outdatedSdks: z.array(z.string()) }),
  })),
  issues: z.object({ missingStrategies: z.array(z.string()) }),
});

export const applicationInstancesSchema = z.object({
  instances: z.array(z.object({
    instanceId: z.string(),
    sdkVersion: z.string().nullable(),
    clientIp: z.string().nullable(),
    lastSeen: isoDateTime,
  })),
});

/** Unleash's projectApplicationSchema: an application seen with the project's flags, by SDK and version. */
export const projectApplicationsSchema = z.object({
  applications: z.array(z.object({
    name: z.string(),
    environments: z.array(z.string()),
    instances: z.array(z.string()),
    sdks: z.array(z.object({ name: z.string(), versions: z.array(z.string()) })),
  })),
  total: z.number().int(),
});
