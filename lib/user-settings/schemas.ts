import * as z from 'zod';

/** Unleash's splashResponseSchema. */
export const splashSchema = z.object({ userId: z.number().int(), splashId: z.string(), seen: z.boolean() });

/** Unleash's feedbackUpdateSchema; feedbackCreateSchema adds the prompt's id. */
export const feedbackUpdateSchema = z.object({
  neverShow: z.boolean().optional(),
  given: z.iso.datetime({ offset: true }).nullable().optional(),
});
export const feedbackCreateSchema = feedbackUpdateSchema.extend({ feedbackId: z.string().min(1).max(100) });

/** Unleash's feedbackResponseSchema. */
export const feedbackSchema = z.object({ userId: z.number().int(), feedbackId: z.string(), neverShow: z.boolean(), given: z.string().nullable() });
