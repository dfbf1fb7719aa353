import type { Operation } from 'fast-json-patch';
// The core module alone: the package's main module keeps all of it in the bundle (fast-json-patch-core.d.ts).
import { applyOperation } from 'fast-json-patch/module/core.mjs';
import * as z from 'zod';
import { ValidationFailed } from '../errors.js';

/*
 * JSON Patch (RFC 6902) for features, in one place: what a request may send (the schemas) and
 * how it is applied to a document (applyJsonPatch). E9 patches a feature, E12 and the
 * per-environment route patch variant lists.
 */

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

/**
 * Applies a JSON Patch to a copy of `document`, every failure a 400 naming the operation.
 * The route schema already refuses pointers into the prototype; this repeats it because
 * fast-json-patch answers them with a plain TypeError, which must never become a 500.
 * The caller then checks the result with the same schema as a whole-document PUT.
 */
export function applyJsonPatch(document: object, operations: PatchOperation[]): unknown {
  operations.forEach((operation, index) => {
    for (const field of ['path', 'from'] as const) {
      const pointer = operation[field];
      if (pointer !== undefined && reachesPrototype(pointer)) {
        throw new ValidationFailed(`${index}.${field}: must not reach __proto__, constructor or prototype`);
      }
    }
  });
  // One operation at a time, so a failure names its own operation (the library's batch
  // validation reports every failure at index 0).
  let patched: unknown = structuredClone(document);
  operations.forEach((operation, index) => {
    try {
      patched = applyOperation(patched, operation as Operation, true, true, true, index).newDocument;
    } catch (error) {
      throw new ValidationFailed(`${index}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  });
  return patched;
}
