import * as z from 'zod';

/** The interface's Error object. */
export const errorSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof errorSchema>;

/**
 * Unleash's URL-friendly name rule: unchanged by `encodeURIComponent`, 1 to 100 characters.
 */
export const urlFriendlyName = z
  .string()
  .min(1)
  .max(100)
  .refine((name) => encodeURIComponent(name) === name, {
    error: 'must be URL-friendly: only letters, digits and - _ . ! ~ * \' ( )',
  });

export const isoDateTime = z.iso.datetime({ offset: true });
