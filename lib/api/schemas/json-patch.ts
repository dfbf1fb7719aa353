import * as z from 'zod';

/** RFC 6902 operations, limited to the five the interface names. */
export const patchOperationSchema = z.object({
  op: z.enum(['add', 'remove', 'replace', 'copy', 'move']),
  path: z.string().startsWith('/', { error: 'must be a JSON pointer starting with /' }),
  from: z.string().optional(),
  value: z.unknown().optional(),
});
export type PatchOperation = z.infer<typeof patchOperationSchema>;

export const patchSchema = z.array(patchOperationSchema);
