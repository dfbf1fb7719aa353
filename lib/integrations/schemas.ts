import * as z from 'zod';
import { eventSchema } from '../events/schemas.js';
import { isoDateTime } from '../http/schemas.js';
import { whole } from '../http/query-filters.js';

/**
 * Unleash's addonCreateUpdateSchema: a provider, whether it is on, its parameters (strings,
 * numbers or booleans, kept as text), and which events, projects and environments it is told
 * about. Unknown properties are dropped, as Unleash strips them.
 */
export const integrationInputSchema = z.object({
  provider: z.string().min(1).max(100),
  description: z.string().max(1000).nullish(),
  enabled: z.boolean().optional(),
  parameters: z.record(z.string().max(100), z.union([z.string().max(10_000), z.number(), z.boolean()]))
    .refine((parameters) => Object.keys(parameters).length <= 20, { error: 'at most 20 parameters' }).optional(),
  events: z.array(z.string().min(1).max(100)).max(200).optional(),
  projects: z.array(z.string().min(1).max(100)).max(1000).optional(),
  environments: z.array(z.string().min(1).max(100)).max(1000).optional(),
});

/** Unleash's addonSchema. */
export const integrationSchema = z.object({
  id: z.number().int(),
  provider: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  parameters: z.record(z.string(), z.string()),
  events: z.array(z.string()),
  projects: z.array(z.string()),
  environments: z.array(z.string()),
  createdAt: isoDateTime,
});

const parameterSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  type: z.string(),
  description: z.string().optional(),
  placeholder: z.string().optional(),
  required: z.boolean(),
  sensitive: z.boolean(),
});

/** Unleash's addonTypeSchema: what the Integrations page draws a provider's form from. */
export const providerSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  documentationUrl: z.string(),
  howTo: z.string().optional(),
  deprecated: z.string().optional(),
  alerts: z.array(z.object({ type: z.string(), text: z.string() })).optional(),
  installation: z.object({ url: z.string(), title: z.string().optional(), helpText: z.string().optional() }).optional(),
  parameters: z.array(parameterSchema),
  events: z.array(z.string()),
  tagTypes: z.array(z.object({ name: z.string(), description: z.string(), icon: z.string() })).optional(),
});

export const integrationListSchema = z.object({ addons: z.array(integrationSchema), providers: z.array(providerSchema) });

/** Unleash's pagination of the integration events: at most 100 a page. */
export const deliveryQuerySchema = z.object({
  limit: whole(1, 100).optional(),
  offset: whole(0, 1000).optional(),
}).transform((q) => ({ limit: q.limit ?? 50, offset: q.offset ?? 0 }));

/** Unleash's integrationEventSchema. */
export const deliverySchema = z.object({
  id: z.string().regex(/^[0-9]+$/),
  integrationId: z.number().int(),
  createdAt: isoDateTime,
  state: z.enum(['success', 'failed', 'successWithErrors']),
  stateDetails: z.string(),
  event: eventSchema,
  details: z.record(z.string(), z.unknown()),
});

export const deliveryListSchema = z.object({ integrationEvents: z.array(deliverySchema) });
