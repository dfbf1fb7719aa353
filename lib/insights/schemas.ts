import * as z from 'zod';

const count = z.number().int().min(0);

/** E14: every top-level field is required. */
export const insightsSchema = z.object({
  users: z.object({ total: count, active: count, inactive: count }),
  flags: z.object({ total: count }),
  userTrends: z.array(z.object({ date: z.string(), total: count, active: count, inactive: count })),
  flagTrends: z.array(z.object({ date: z.string(), total: count, active: count, stale: count, potentiallyStale: count })),
  projectFlagTrends: z.array(
    z.object({
      week: z.string(), project: z.string(), health: z.number(), timeToProduction: z.number(), date: z.string(),
      total: count, active: count, stale: count, potentiallyStale: count, users: count,
    }),
  ),
  metricsSummaryTrends: z.array(
    z.object({
      week: z.string(), date: z.string(), project: z.string(), totalRequests: count, totalYes: count, totalNo: count,
      totalApps: count, totalFlags: count, totalEnvironments: count,
    }),
  ),
  environmentTypeTrends: z.array(z.object({ date: z.string(), week: z.string(), environmentType: z.string(), totalUpdates: count })),
});
