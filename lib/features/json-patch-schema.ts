import * as z from 'zod';

/**
 * Segments that reach an object's prototype instead of its data. fast-json-patch throws a
 * plain TypeError on them (a 500), and no patchable document has such a field, so a pointer
 * holding one anywhere is refused up front, in `path` and in `from` alike.
 */
const PROTOTYPE_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/** RFC 6901: `~1` is `/` and `~0` is `~` inside a segment, decoded in that order. */
export function reachesPrototype(pointer: string): boolean {
  return pointer.split('/').some((segment) => PROTOTYPE_SEGMENTS.has(segment.replaceAll('~1', '/').replaceAll('~0', '~')));
}

const safePointer = { error: 'must not reach __proto__, constructor or prototype' };

/** RFC 6902 operations, limited to the five the interface names. */
export const patchOperationSchema = z.object({
  op: z.enum(['add', 'remove', 'replace', 'copy', 'move']),
  path: z.string().startsWith('/', { error: 'must be a JSON pointer starting with /' }).refine((path) => !reachesPrototype(path), safePointer),
  from: z.string().refine((from) => !reachesPrototype(from), safePointer).optional(),
  value: z.unknown().optional(),
});
export type PatchOperation = z.infer<typeof patchOperationSchema>;

export const patchSchema = z.array(patchOperationSchema);
