import * as z from 'zod';
import { lenient, reportedCount, reportedInterval, reportedMoment, reportedText, strategyNames } from '../client/schemas.js';
import { BULK_REPORT_LIMITS, EDGE_VALIDATION, MAX_CONNECTED_EDGES } from './model.js';

// ── POST /edge/validate ─────────────────────────────────────────────────────

/** Unleash's tokenStringListSchema; other fields are ignored. */
export const validateTokensBodySchema = z.looseObject({
  tokens: z.array(z.string().max(1000))
    .max(EDGE_VALIDATION.tokensPerRequest, { error: `at most ${EDGE_VALIDATION.tokensPerRequest} tokens per request; send the rest in another` }),
});

/** Unleash's validatedEdgeTokensSchema: the valid tokens only, each with its type, environment and projects. */
export const validatedTokensSchema = z.object({
  tokens: z.array(z.object({
    token: z.string(),
    type: z.enum(['client', 'backend', 'frontend', 'admin']).meta({ description: 'Lower case, as Unleash answers' }),
    environment: z.string(),
    projects: z.array(z.string()).meta({ description: 'Always a list; ["*"] for every project' }),
  })),
});

// ── POST /api/client/metrics/bulk (lenient, capped) ─────────────────────────

/** Items that are not objects of the expected shape are dropped, not refused (Edge drops a whole batch on a 400). */
const lenientList = <T extends z.ZodType>(item: T) =>
  z.array(item.optional().catch(undefined)).catch([])
    .transform((items) => items.filter((entry): entry is NonNullable<z.output<T>> => entry !== undefined && entry !== null));

/** Unleash's bulkRegistrationSchema as far as a registration uses it; connectVia, sdkType, flavors … pass unread. */
const bulkRegistration = z.looseObject({
  appName: reportedText,
  instanceId: lenient(reportedText),
  environment: lenient(reportedText),
  sdkVersion: lenient(reportedText),
  strategies: lenient(strategyNames),
  started: lenient(reportedMoment),
  interval: lenient(reportedInterval),
});

/** Unleash's clientMetricsEnvSchema: one feature's counts for one application, environment and hour. */
const bulkCount = z.looseObject({
  featureName: z.string().min(1).max(255),
  appName: lenient(reportedText),
  environment: lenient(reportedText),
  timestamp: lenient(reportedMoment),
  yes: reportedCount.optional().transform((value) => value ?? 0),
  no: reportedCount.optional().transform((value) => value ?? 0),
  variants: z.unknown().optional(),
});

export const bulkMetricsSchema = z
  .looseObject({
    applications: lenientList(bulkRegistration).meta({ maxItems: BULK_REPORT_LIMITS.applications }),
    metrics: lenientList(bulkCount).meta({ maxItems: BULK_REPORT_LIMITS.metrics }),
    impactMetrics: z.unknown().optional(),
    seenTokens: z.unknown().optional(),
  })
  .catch({ applications: [], metrics: [] })
  // The one refusal, on what the lenient parse kept: a report's work stays bounded.
  .check((ctx) => {
    for (const part of ['applications', 'metrics'] as const) {
      const held = ctx.value[part].length;
      const most = BULK_REPORT_LIMITS[part];
      if (held <= most) continue;
      ctx.issues.push({ code: 'custom', input: ctx.value, path: [part], message: `A bulk report may hold at most ${most} ${part}; this one holds ${held}. Send smaller batches.` });
    }
  });
export type BulkMetricsReport = z.output<typeof bulkMetricsSchema>;

// ── POST /api/client/metrics/edge (lenient) ─────────────────────────────────

/** What an Edge says about itself (EdgeInstanceData) as far as it is kept: traffic and latency figures pass unread. */
const edgeInstance = z.looseObject({
  identifier: lenient(reportedText),
  appName: lenient(reportedText),
  edgeVersion: lenient(z.string().min(1).max(100)),
  started: lenient(reportedMoment),
});

export const edgeInstanceSchema = edgeInstance
  .extend({
    connectedEdges: lenientList(edgeInstance.extend({ connectedEdges: z.unknown().optional() }))
      .transform((edges) => edges.slice(0, MAX_CONNECTED_EDGES)),
  })
  .catch({ connectedEdges: [] });
export type EdgeInstanceReport = z.output<typeof edgeInstanceSchema>;
