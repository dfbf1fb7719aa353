import jsonpatch from 'fast-json-patch';
import { reachesPrototype, type PatchOperation } from '../json-patch-schema.js';
import { ValidationFailed } from '../../errors.js';

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
      patched = jsonpatch.applyOperation(patched, operation as jsonpatch.Operation, true, true, true, index).newDocument;
    } catch (error) {
      throw new ValidationFailed(`${index}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  });
  return patched;
}
