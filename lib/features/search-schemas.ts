import * as z from 'zod';
import { filter, whole } from '../http/query-filters.js';
import { isoDateTime } from '../http/schemas.js';
import { lifecycleStageSchema, wireTag } from './schemas.js';
import { SEARCH_LIMITS, type SearchQuery, type SortBy } from './search-model.js';

/** The applications' list takes the same whole numbers (lib/applications/schemas.ts). */
export { whole };

// ── the query string (Unleash's featureSearchQueryParameters) ────────────────

const EQUALITY = ['IS', 'IS_NOT', 'IS_ANY_OF', 'IS_NONE_OF'] as const;
const INCLUSION = ['INCLUDE', 'DO_NOT_INCLUDE', 'INCLUDE_ALL_OF', 'INCLUDE_ANY_OF', 'EXCLUDE_IF_ANY_OF', 'EXCLUDE_ALL'] as const;
const DATE = ['IS_BEFORE', 'IS_ON_OR_AFTER'] as const;
const STATES = ['active', 'stale', 'potentially-stale'] as const;
const STAGES = ['initial', 'pre-live', 'live', 'completed', 'archived'] as const;

/** `IS_BEFORE:2024-01-31` or `IS_ON_OR_AFTER:2024-01-31`: midnight UTC of that day. */
const dateFilter = z.string().transform((text, ctx) => {
  const match = /^(IS_BEFORE|IS_ON_OR_AFTER):(\d{4}-\d{2}-\d{2})$/.exec(text);
  const day = match ? new Date(`${match[2]}T00:00:00.000Z`) : undefined;
  if (!match || !day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== match[2]) {
    ctx.addIssue({ code: 'custom', message: `must be ${DATE.join(' or ')}:YYYY-MM-DD (a real date)` });
    return z.NEVER;
  }
  return { operator: match[1] as (typeof DATE)[number], at: day.toISOString() };
});

const tagValue = (value: string) => (/^[^:]+:.+$/.test(value) ? undefined : `each tag must be type:value, got ${JSON.stringify(value)}`);
const statusValue = (value: string) =>
  /^.+:(enabled|disabled)$/.test(value) ? undefined : `each status must be environment:enabled or environment:disabled, got ${JSON.stringify(value)}`;

const SORT_FIELDS = ['createdAt', 'name', 'type', 'stale', 'project', 'lastSeenAt'] as const;
const sortBy = z.string().transform((text, ctx): SortBy => {
  if ((SORT_FIELDS as readonly string[]).includes(text)) return { field: text as (typeof SORT_FIELDS)[number] };
  const environment = /^environment:(.+)$/.exec(text)?.[1];
  if (environment) return { field: 'environment', environment };
  ctx.addIssue({ code: 'custom', message: `must be one of ${SORT_FIELDS.join(', ')} or environment:<name>` });
  return z.NEVER;
});

const trueOrFalse = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((value) => value === 'true');

/**
 * The search's query parameters. Unleash reads more than it documents and ignores what it
 * cannot parse; here a parameter it documents but sent malformed is a 400 naming it, and a
 * parameter it does not know (the UI also sends `columns`) is ignored, as Unleash does.
 */
export const featureSearchQuerySchema = z
  .object({
    query: z.string().max(1000).optional(),
    project: filter(EQUALITY).optional(),
    type: filter(EQUALITY).optional(),
    state: filter(EQUALITY, STATES).optional(),
    lifecycle: filter(EQUALITY, STAGES).optional(),
    createdBy: filter(EQUALITY).optional(),
    tag: filter(INCLUSION, undefined, tagValue).optional(),
    segment: filter(INCLUSION).optional(),
    status: z.string().transform((text, ctx) => {
      const values = text.split(',').map((value) => value.trim()).filter(Boolean);
      const wrong = values.map(statusValue).find((message) => message !== undefined);
      if (wrong) ctx.addIssue({ code: 'custom', message: wrong });
      return values.map((value) => {
        const at = value.lastIndexOf(':');
        return { environment: value.slice(0, at), enabled: value.slice(at + 1) === 'enabled' };
      });
    }).optional(),
    archived: z.enum(['IS:true', 'IS:false'], { error: 'must be IS:true or IS:false' }).optional(),
    favorite: z.string().regex(/^(IS|IS_ANY_OF):(true|false)(,(true|false))*$/, { error: 'must be IS:true, IS:false or IS_ANY_OF:true,false' }).optional(),
    favoritesFirst: trueOrFalse.optional(),
    createdAt: dateFilter.optional(),
    lastSeenAt: dateFilter.optional(),
    sortBy: sortBy.optional(),
    sortOrder: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional(),
    offset: whole(0, SEARCH_LIMITS.maxOffset).optional(),
    limit: whole(1, SEARCH_LIMITS.maxLimit).optional(),
  })
  .transform((q): SearchQuery => ({
    terms: (q.query ?? '').split(',').map((term) => term.trim().toLowerCase()).filter(Boolean),
    archived: q.archived === 'IS:true',
    project: q.project, type: q.type, state: q.state, lifecycle: q.lifecycle, createdBy: q.createdBy,
    tag: q.tag, segment: q.segment, status: q.status ?? [],
    favorite: q.favorite === undefined ? undefined : (q.favorite.split(':')[1] ?? '').split(',').map((value) => value === 'true'),
    favoritesFirst: q.favoritesFirst ?? false,
    createdAt: q.createdAt, lastSeenAt: q.lastSeenAt,
    sortBy: q.sortBy ?? { field: 'createdAt' },
    sortOrder: q.sortOrder ?? 'asc',
    offset: q.offset ?? 0,
    limit: q.limit ?? SEARCH_LIMITS.defaultLimit,
  }));

// ── the answer (Unleash's searchFeaturesSchema) ──────────────────────────────

/** featureSearchEnvironmentSchema: a feature in one of its project's environments, without strategies. */
export const featureSearchEnvironmentSchema = z.object({
  name: z.string(),
  enabled: z.boolean(),
  type: z.string(),
  sortOrder: z.number(),
  variantCount: z.number().int(),
  lastSeenAt: isoDateTime.nullable(),
  hasStrategies: z.boolean(),
  hasEnabledStrategies: z.boolean(),
  /** Open change requests on it: none here (there are no change requests), as the UI expects a list. */
  changeRequestIds: z.array(z.number()),
});

/** featureSearchResponseSchema. */
export const featureSearchItemSchema = z.object({
  name: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  dependencyType: z.enum(['parent', 'child']).nullable(),
  project: z.string(),
  stale: z.boolean(),
  favorite: z.boolean(),
  impressionData: z.boolean(),
  createdAt: isoDateTime.nullable(),
  archivedAt: isoDateTime.nullable(),
  lastSeenAt: isoDateTime.nullable(),
  /** Who created it; Unleash's unknown user (id 0, which the UI shows without a link) for a flag created before creators were recorded. */
  createdBy: z.object({ id: z.number().int(), name: z.string(), imageUrl: z.string() }),
  environments: z.array(featureSearchEnvironmentSchema),
  /** Names of the segments its strategies use. */
  segments: z.array(z.string()),
  tags: z.array(wireTag).nullable(),
  /** The stage the flag is in (the table's lifecycle column). */
  lifecycle: lifecycleStageSchema,
});
export type FeatureSearchItemWire = z.input<typeof featureSearchItemSchema>;

/** searchFeaturesSchema: one page, and how many features match in all. */
export const searchFeaturesSchema = z.object({
  features: z.array(featureSearchItemSchema),
  total: z.number().int().min(0),
});
