import * as z from 'zod';
import { SDK_REPORT_LIMITS } from '../limits.js';
import { wireConstraint } from '../features/schemas.js';

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
// The payload builder (payload.ts) is typed by these schemas, so the wire shape is declared
// once; it is never parsed with them at run time, as the payload is built once per revision.

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
  // Present only when the strategy has segments and the SDK reads them as a list.
  segments: z.array(z.number().int()).optional(),
});

// `variants` is present only when the parent must be enabled.
const clientDependencySchema = z.object({ feature: z.string(), enabled: z.boolean(), variants: z.array(z.string()).optional() });

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
  dependencies: z.array(clientDependencySchema).optional(),
});

const clientSegmentSchema = z.object({ id: z.number().int(), name: z.string(), constraints: z.array(wireConstraint) });

const clientPayloadMetaSchema = z.object({ revisionId: z.number().int(), etag: z.string(), queryHash: z.string() });

export const clientFeaturesSchema = z.object({
  version: z.literal(2),
  features: z.array(clientFeatureSchema),
  segments: z.array(clientSegmentSchema).optional(),
  query: z.object({
    environment: z.string(),
    inlineSegmentConstraints: z.boolean(),
    project: z.array(z.string()).optional(),
    namePrefix: z.string().optional(),
    tag: z.array(z.array(z.string())).optional(),
  }),
  meta: clientPayloadMetaSchema,
});

// z.input, as route handlers answer with a response schema's input (lib/http/operation.ts).
export type ClientConstraint = z.input<typeof wireConstraint>;
export type ClientStrategyVariant = z.input<typeof clientStrategyVariantSchema>;
export type ClientVariant = z.input<typeof clientVariantSchema>;
export type ClientStrategy = z.input<typeof clientStrategySchema>;
export type ClientDependency = z.input<typeof clientDependencySchema>;
export type ClientFeature = z.input<typeof clientFeatureSchema>;
export type ClientSegment = z.input<typeof clientSegmentSchema>;
export type ClientPayloadMeta = z.input<typeof clientPayloadMetaSchema>;
export type ClientPayload = z.input<typeof clientFeaturesSchema>;

// ── register and metrics (lenient) ──────────────────────────────────────────

/**
 * A field the SDK may send in another shape than expected: kept when it fits, dropped when
 * not. These schemas fail only on a report above SDK_REPORT_LIMITS, because the Node SDK stops
 * reporting for good after a 400 (Unleash answers 400 to a metrics report it cannot process).
 */
export const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** A name an SDK reports (appName, instanceId, sdkVersion …). */
export const reportedText = z.string().min(1).max(255);
/**
 * A reporting interval as SDKs send it (milliseconds; Java sends seconds): a whole number, so a
 * value the store cannot keep (1e-310, 1e300) is left out rather than refused after a write.
 */
export const reportedInterval = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** A time as SDKs send it: ISO text, or epoch milliseconds. */
export const reportedMoment = z.union([z.string().max(100), z.number()]);
/** An evaluation count; anything else counts 0. */
export const reportedCount = z.number().int().min(0).catch(0);
const text = reportedText;
const moment = reportedMoment;
const count = reportedCount;

/** Strategy type names, bounded as every name is; a longer list or name is not stored. */
export const strategyNames = z.array(z.string().min(1).max(100)).max(SDK_REPORT_LIMITS.strategies);

export const clientRegisterSchema = z
  .looseObject({
    appName: lenient(text),
    instanceId: lenient(text),
    sdkVersion: lenient(text),
    environment: lenient(text),
    strategies: lenient(strategyNames),
    started: lenient(moment),
    interval: lenient(reportedInterval),
  })
  .catch({});

const toggleCounts = z
  .record(z.string(), z.looseObject({ yes: count, no: count }).catch({ yes: 0, no: 0 }))
  .catch({})
  .meta({ maxProperties: SDK_REPORT_LIMITS.toggles, description: 'Counts per feature name; names of no feature in the token’s scope are ignored' });

export const clientMetricsSchema = z
  .looseObject({
    appName: lenient(text),
    instanceId: lenient(text),
    environment: lenient(text),
    bucket: lenient(z.looseObject({ start: lenient(moment), stop: lenient(moment), toggles: toggleCounts })),
  })
  .catch({})
  // Checked on what the lenient parse kept, outside its catch, so it is the one refusal: a
  // report's work (two writes per toggle at most) stays bounded whatever it sends.
  .check((ctx) => {
    const reported = Object.keys(ctx.value.bucket?.toggles ?? {}).length;
    if (reported <= SDK_REPORT_LIMITS.toggles) return;
    ctx.issues.push({
      code: 'custom', input: ctx.value, path: ['bucket', 'toggles'],
      message: `A report may count at most ${SDK_REPORT_LIMITS.toggles} toggles; this one counts ${reported}. Report more often.`,
    });
  });

// ── delta (Unleash's delta protocol, /api/client/delta) ─────────────────────

const deltaEventId = z.number().int().meta({ description: 'The revision the event brings the SDK to (the ETag names it too)' });

const deltaEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hydration'), eventId: deltaEventId, features: z.array(clientFeatureSchema), segments: z.array(clientSegmentSchema) }),
  z.object({ type: z.literal('feature-updated'), eventId: deltaEventId, feature: clientFeatureSchema }),
  z.object({ type: z.literal('feature-removed'), eventId: deltaEventId, featureName: z.string(), project: z.string() }),
  z.object({ type: z.literal('segment-updated'), eventId: deltaEventId, segment: clientSegmentSchema }),
  z.object({ type: z.literal('segment-removed'), eventId: deltaEventId, segmentId: z.number().int() }),
]);

export const clientDeltaSchema = z.object({ events: z.array(deltaEventSchema) });
export type DeltaEvent = z.input<typeof deltaEventSchema>;
