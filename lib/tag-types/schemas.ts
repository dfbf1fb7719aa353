import * as z from 'zod';
import { urlFriendlyName } from '../http/schemas.js';
import { wireTag } from '../features/schemas.js';

export const tagTypeCreateSchema = z.object({
  name: urlFriendlyName.pipe(z.string().min(2).max(50)),
  description: z.string().max(1000).nullish(),
  icon: z.string().max(100).nullish(),
});

/** PUT changes what a tag type says about itself; its name comes from the path. */
export const tagTypeUpdateSchema = tagTypeCreateSchema.omit({ name: true }).extend({ name: z.string().optional() });

export const tagTypeSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
});

export const tagTypeListSchema = z.object({ version: z.literal(1), tagTypes: z.array(tagTypeSchema) });
export const tagTypeValidationSchema = z.object({ valid: z.literal(true), tagType: tagTypeSchema });
export const tagTypeOneSchema = z.object({ version: z.literal(1), tagType: tagTypeSchema });

/** The answer to POST /api/admin/tags, which takes a tag as a feature's tag endpoints do. */
export const tagCreatedSchema = z.object({ version: z.literal(1), tag: wireTag });
