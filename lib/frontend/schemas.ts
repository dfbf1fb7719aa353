import * as z from 'zod';

/**
 * `POST /api/frontend`: the context under `context`, as Unleash reads it (a flat body is ignored).
 * Values are checked where the context is built (context.ts), so a bad one is named there.
 */
export const frontendContextBodySchema = z.looseObject({
  context: z.record(z.string(), z.unknown()).optional(),
});

const frontendVariantSchema = z.object({
  name: z.string(),
  enabled: z.boolean(),
  payload: z.object({ type: z.string(), value: z.string() }).optional(),
  feature_enabled: z.boolean(),
  featureEnabled: z.boolean(),
});

/** The Frontend API's answer: the enabled toggles only, each with its variant. */
export const frontendTogglesSchema = z.object({
  toggles: z.array(z.object({
    name: z.string(),
    enabled: z.boolean(),
    variant: frontendVariantSchema,
    impressionData: z.boolean(),
  })),
});

/** Where browsers may call the Frontend API from: `*`, or origins such as `https://app.example.com`. */
export const frontendOriginsSchema = z.object({
  frontendApiOrigins: z.array(
    z.string().refine((origin) => origin === '*' || isOrigin(origin), { error: 'must be * or an origin such as https://example.com' }),
  ).max(100),
});

function isOrigin(text: string): boolean {
  try {
    return new URL(text).origin === text;
  } catch {
    return false;
  }
}
