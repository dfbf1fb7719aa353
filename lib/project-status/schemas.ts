import * as z from 'zod';

const stage = z.object({ averageDays: z.number().nullable(), currentFlags: z.number().int() });

/** Unleash's projectStatusSchema. */
export const projectStatusSchema = z.object({
  resources: z.object({ members: z.number().int(), apiTokens: z.number().int(), segments: z.number().int() }),
  activityCountByDate: z.array(z.object({ date: z.string(), count: z.number().int() })),
  health: z.object({ current: z.number().int() }),
  technicalDebt: z.object({ current: z.number().int().max(100) }),
  lifecycleSummary: z.object({
    initial: stage, preLive: stage, live: stage, completed: stage,
    archived: z.object({ currentFlags: z.number().int(), last30Days: z.number().int() }),
  }),
  staleFlags: z.object({ total: z.number().int() }),
});

/** Unleash's projectFlagCreatorsSchema. */
export const flagCreatorsSchema = z.array(z.object({ id: z.number().int(), name: z.string() }));

/** Unleash's outdatedSdksSchema. */
export const outdatedSdksSchema = z.object({ sdks: z.array(z.object({ sdkVersion: z.string(), applications: z.array(z.string()) })) });
