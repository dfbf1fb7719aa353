import * as z from 'zod';
import { isoDateTime } from '../http/schemas.js';
import { filter, whole } from '../http/query-filters.js';
import type { EventSearch } from './service.js';

const EQUALITY = ['IS', 'IS_ANY_OF'] as const;

/** `IS:YYYY-MM-DD`, as the event log's date filters send it: midnight UTC of that day. */
const day = z.string().transform((text, ctx) => {
  const match = /^IS:(\d{4}-\d{2}-\d{2})$/.exec(text);
  const at = match ? new Date(`${match[1]}T00:00:00.000Z`) : undefined;
  if (!match || !at || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== match[1]) {
    ctx.addIssue({ code: 'custom', message: 'must be IS:YYYY-MM-DD (a real date)' });
    return z.NEVER;
  }
  return at;
});

/** Unleash's largest event page, and how far a page may start. */
export const EVENT_SEARCH_LIMITS = { defaultLimit: 50, maxLimit: 1000, maxOffset: 10_000_000 } as const;

/**
 * Unleash's event search parameters (eventSearchQueryParameters). A documented parameter sent
 * malformed is a 400 naming it; `groupId` is read and matches nothing (no event here belongs to
 * a group of events).
 */
export const eventSearchQuerySchema = z
  .object({
    query: z.string().max(1000).optional(),
    id: filter(EQUALITY).optional(),
    groupId: filter(EQUALITY).optional(),
    // Each named feature is one Query of its own partition: a bounded number of them.
    feature: filter(EQUALITY).refine((named) => named.values.length <= 100, { error: 'names at most 100 features' }).optional(),
    project: filter(EQUALITY).optional(),
    type: filter(EQUALITY).optional(),
    createdBy: filter(EQUALITY).optional(),
    environment: filter(EQUALITY).optional(),
    from: day.optional(),
    to: day.optional(),
    offset: whole(0, EVENT_SEARCH_LIMITS.maxOffset).optional(),
    limit: whole(1, EVENT_SEARCH_LIMITS.maxLimit).optional(),
  })
  .transform((q): EventSearch => ({
    ...q,
    query: q.query?.trim().toLowerCase() || undefined,
    offset: q.offset ?? 0,
    limit: q.limit ?? EVENT_SEARCH_LIMITS.defaultLimit,
  }));

/** Unleash's eventSchema, as this service fills it (lib/events/wire.ts). */
export const eventSchema = z.object({
  id: z.string(),
  type: z.string(),
  createdAt: isoDateTime,
  createdBy: z.string(),
  createdByUserId: z.number().nullable(),
  environment: z.string().nullable(),
  project: z.string().nullable(),
  featureName: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  preData: z.record(z.string(), z.unknown()).nullable(),
  tags: z.array(z.object({ type: z.string(), value: z.string() })),
  label: z.string(),
  summary: z.string(),
});

export const eventSearchResponseSchema = z.object({ events: z.array(eventSchema), total: z.number().int() });

/** The deprecated list of one feature's events (Unleash's featureEventsSchema): its newest 50. */
export const featureEventsSchema = z.object({
  version: z.literal(1),
  toggleName: z.string(),
  events: z.array(eventSchema),
  totalEvents: z.number().int(),
});

/** Unleash's eventCreatorsSchema: users by id, for the event log's "Created by" filter. */
export const eventCreatorsSchema = z.array(z.object({ id: z.number().int(), name: z.string() }));
