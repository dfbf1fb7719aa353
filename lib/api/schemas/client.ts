import * as z from 'zod';
import { wireConstraint } from './features.js';

// ── E17/E18 query ───────────────────────────────────────────────────────────

/** Unleash's rule for a tag filter: `type:value`. */
const TAG_FILTER = /^\w+:.+$/;

/**
 * API Gateway (and the local server) join a repeated query parameter with commas. Project ids
 * are URL-friendly, so they never hold a comma; a tag value may, so tags split only where the
 * next piece starts like another `type:`.
 */
const projectList = z
  .string()
  .optional()
  .transform((value) => value?.split(',').map((project) => project.trim()).filter((project) => project.length > 0));

const tagList = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value.split(/,(?=\w+:)/)))
  .pipe(z.array(z.string().regex(TAG_FILTER, { error: 'must be a tag as type:value, e.g. simple:beta' })).optional())
  .transform((tags) =>
    tags?.map((tag) => {
      const colon = tag.indexOf(':');
      return { type: tag.slice(0, colon), value: tag.slice(colon + 1) };
    }),
  );

/** Unknown parameters are dropped; `inlineSegmentConstraints` is decided by the spec header, as in Unleash. */
export const clientFeaturesQuerySchema = z.object({
  project: projectList,
  namePrefix: z.string().optional(),
  tag: tagList,
  environment: z.string().optional(),
});
export type ClientFeaturesQuery = z.output<typeof clientFeaturesQuerySchema>;

// ── E17/E18 responses ───────────────────────────────────────────────────────


const variantPayloadSchema = z.object({ type: z.enum(['json', 'csv', 'string', 'number']), value: z.string() });

const clientStrategyVariantSchema = z.object({
  name: z.string(),
  weight: z.number(),
  weightType: z.enum(['variable', 'fix']),
  stickiness: z.string(),
  payload: variantPayloadSchema.optional(),
});

const clientVariantSchema = clientStrategyVariantSchema.extend({
  overrides: z.array(z.object({ contextName: z.string(), values: z.array(z.string()) })).optional(),
});

const clientStrategySchema = z.object({
  name: z.string(),
  constraints: z.array(wireConstraint),
  parameters: z.record(z.string(), z.string()),
  variants: z.array(clientStrategyVariantSchema),
  segments: z.array(z.number().int()).optional(),
});

export const clientFeatureSchema = z.object({
  name: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  project: z.string(),
  enabled: z.boolean(),
  stale: z.boolean(),
  impressionData: z.boolean(),
  strategies: z.array(clientStrategySchema),
  variants: z.array(clientVariantSchema),
  dependencies: z
    .array(z.object({ feature: z.string(), enabled: z.boolean(), variants: z.array(z.string()).optional() }))
    .optional(),
});

export const clientFeaturesSchema = z.object({
  version: z.literal(2),
  features: z.array(clientFeatureSchema),
  segments: z.array(z.object({ id: z.number().int(), name: z.string(), constraints: z.array(wireConstraint) })).optional(),
  query: z.object({
    environment: z.string(),
    inlineSegmentConstraints: z.boolean(),
    project: z.array(z.string()).optional(),
    namePrefix: z.string().optional(),
    tag: z.array(z.array(z.string())).optional(),
  }),
  meta: z.object({ revisionId: z.number().int(), etag: z.string(), queryHash: z.string() }),
});

// ── register and metrics (lenient) ──────────────────────────────────────────

/**
 * A field the SDK may send in another shape than expected: kept when it fits, dropped when
 * not. These schemas never fail, because the Node SDK stops reporting for good after a 400.
 */
const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const text = z.string().min(1).max(255);
const moment = z.union([z.string(), z.number()]);
const count = z.number().int().min(0).catch(0);

export const clientRegisterSchema = z
  .looseObject({
    appName: lenient(text),
    instanceId: lenient(text),
    sdkVersion: lenient(text),
    environment: lenient(text),
    strategies: lenient(z.array(z.string())),
    started: lenient(moment),
    interval: lenient(z.number()),
  })
  .catch({});

export const clientMetricsSchema = z
  .looseObject({
    appName: lenient(text),
    instanceId: lenient(text),
    environment: lenient(text),
    bucket: lenient(
      z.looseObject({
        start: lenient(moment),
        stop: lenient(moment),
        toggles: z
          .record(z.string(), z.looseObject({ yes: count, no: count }).catch({ yes: 0, no: 0 }))
          .catch({}),
      }),
    ),
  })
  .catch({});
