import * as z from 'zod';

/** `true`/`false`/`1`/`0`, as query strings carry booleans; anything else is a 400. */
const flag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true, false, 1 or 0' })
  .transform((value) => value === 'true' || value === '1');

export const stateExportQuerySchema = z.object({
  format: z.enum(['json', 'yaml']).default('json'),
  download: flag.default(false),
  strategies: flag.default(true),
  featureToggles: flag.default(true),
  projects: flag.default(true),
  tags: flag.default(true),
  environments: flag.default(true),
});

export const stateSchema = z.looseObject({
  version: z.number().int(),
  features: z.array(z.unknown()).optional(),
  strategies: z.array(z.unknown()).optional(),
  tags: z.array(z.unknown()).optional(),
  tagTypes: z.array(z.unknown()).optional(),
  featureTags: z.array(z.unknown()).optional(),
  projects: z.array(z.unknown()).optional(),
  featureStrategies: z.array(z.unknown()).optional(),
  featureEnvironments: z.array(z.unknown()).optional(),
  environments: z.array(z.unknown()).optional(),
  segments: z.array(z.unknown()).optional(),
  featureStrategySegments: z.array(z.unknown()).optional(),
});
