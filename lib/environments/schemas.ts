import * as z from 'zod';
import { isoDateTime, urlFriendlyName } from '../http/schemas.js';

/** A project's default strategy in one of its environments, as the project and environment endpoints show it. */
export const defaultStrategySchema = z.object({
  name: z.string(),
  title: z.string().nullable(),
  constraints: z.array(z.object({
    contextName: z.string(), operator: z.string(), values: z.array(z.string()), value: z.string().optional(),
    caseInsensitive: z.boolean(), inverted: z.boolean(),
  })),
  parameters: z.record(z.string(), z.string()),
});

export const environmentCreateSchema = z.object({
  name: urlFriendlyName,
  type: z.string().trim().min(1).max(100),
  enabled: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
});

export const environmentSchema = z.object({
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  protected: z.boolean(),
  sortOrder: z.number(),
  createdAt: isoDateTime,
});
export type EnvironmentWire = z.input<typeof environmentSchema>;

export const environmentListSchema = z.object({ version: z.literal(1), environments: z.array(environmentSchema) });

/** GET /api/admin/environments/project/{projectId}: every environment as one project sees it. */
export const projectEnvironmentListSchema = z.object({
  version: z.literal(1),
  environments: z.array(
    environmentSchema.omit({ createdAt: true }).extend({
      /** Client and frontend tokens of this environment that reach the project. */
      projectApiTokenCount: z.number().int(),
      /** The project's features that are on in this environment. */
      projectEnabledToggleCount: z.number().int(),
      defaultStrategy: defaultStrategySchema.optional(),
      /** The project uses this environment. */
      visible: z.boolean(),
    }),
  ),
});
