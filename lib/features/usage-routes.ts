import * as z from 'zod';
import { admin, defineRoutes } from '../http/route.js';
import { DEFAULT_USAGE_HOURS, USAGE_HOURS } from './usage-service.js';

const USAGE = '/api/admin/client-metrics/features/{featureName}';

const environmentUsage = z.object({
  environment: z.string(),
  timestamp: z.string(),
  yes: z.number().int().min(0),
  no: z.number().int().min(0),
});

/**
 * `hoursBack` must be a whole number; past the hours kept (or below one) it is Unleash's default,
 * as Unleash answers when its longer spans are off (the UI offers up to 90 days behind a flag).
 */
const hoursBackSchema = z.object({
  hoursBack: z
    .string()
    .regex(/^\d{1,6}$/, { error: 'must be a whole number of hours' })
    .optional()
    .transform((text) => {
      const hours = Number(text ?? DEFAULT_USAGE_HOURS);
      return hours >= 1 && hours <= USAGE_HOURS ? hours : DEFAULT_USAGE_HOURS;
    }),
});

/** A feature's SDK usage, from the hourly counters (ADR 15): the admin UI's metrics tab. */
export const featureUsageRoutes = defineRoutes('features', {
  getFeatureUsageSummary: {
    method: 'GET', path: USAGE, access: admin('READ_FEATURE'), status: 200,
    summary: "A feature's evaluations this hour by environment, and the applications that reported it",
    response: z.object({
      version: z.literal(1),
      maturity: z.literal('stable'),
      featureName: z.string(),
      lastHourUsage: z.array(environmentUsage),
      seenApplications: z.array(z.string()),
    }),
  },
  getRawFeatureMetrics: {
    method: 'GET', path: `${USAGE}/raw`, access: admin('READ_FEATURE'), status: 200,
    summary: `A feature's evaluations by hour and environment over hoursBack hours (1 to ${USAGE_HOURS}, default ${DEFAULT_USAGE_HOURS})`,
    query: hoursBackSchema,
    response: z.object({
      version: z.literal(1),
      maturity: z.literal('stable'),
      data: z.array(environmentUsage.extend({ featureName: z.string(), appName: z.string(), variants: z.record(z.string(), z.number().int().min(0)) })),
    }),
  },
});
