import * as z from 'zod';

/** Unleash's unknownFlagSchema. */
export const unknownFlagSchema = z.object({
  name: z.string(),
  lastSeenAt: z.string(),
  lastEventAt: z.string().nullable(),
  reports: z.array(z.object({
    appName: z.string(),
    environments: z.array(z.object({ environment: z.string(), seenAt: z.string() })),
  })),
});

/** Unleash's unknownFlagsResponseSchema. */
export const unknownFlagsResponseSchema = z.object({ unknownFlags: z.array(unknownFlagSchema) });
