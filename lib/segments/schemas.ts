import * as z from 'zod';
import { isoDateTime } from '../http/schemas.js';
import { constraintSchema } from '../features/constraint-schemas.js';
import { strategyUsageSchema } from '../features/schemas.js';

/** POST and PUT alike: PUT replaces the segment's details (its id, creator and creation time stay). */
export const segmentInputSchema = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1000).nullish(),
  project: z.string().min(1).max(100).nullish(),
  constraints: z.array(constraintSchema),
});

/** POST /api/admin/segments/validate: a name as a segment's input takes it. */
export const segmentNameCheckSchema = segmentInputSchema.pick({ name: true });

const wireConstraint = z.object({
  contextName: z.string(),
  operator: z.string(),
  values: z.array(z.string()),
  value: z.string().optional(),
  caseInsensitive: z.boolean(),
  inverted: z.boolean(),
});

export const segmentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  project: z.string().nullable(),
  constraints: z.array(wireConstraint),
  createdAt: isoDateTime,
  createdBy: z.string().nullable(),
  usedInFeatures: z.number().int().optional(),
  usedInProjects: z.number().int().optional(),
});
export type SegmentWire = z.input<typeof segmentSchema>;

export const segmentListSchema = z.object({ segments: z.array(segmentSchema) });

/** GET /api/admin/segments/{id}/strategies; change requests are an enterprise feature, so that list stays empty. */
export const segmentStrategiesSchema = z.object({
  strategies: z.array(strategyUsageSchema),
  changeRequestStrategies: z.array(z.never()),
});
