import fc from 'fast-check';
import * as z from 'zod';

/** The part of JSON Schema that zod 4 emits for this API's request schemas. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

/** The wire (input) shape of a zod schema; transforms and refinements have no JSON Schema form. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Values the services may recognise: names of things the fuzz setup created, and the seeds. */
export type NamePool = () => string[];

/** Generated arrays and strings stay small: the size limits have their own cases. */
const MAX_ARRAY = 4;
const MAX_STRING = 40;
const MAX_DEPTH = 6;

/**
 * Values that satisfy the JSON Schema (mostly: zod refinements such as URL-friendliness are
 * not in it), so that requests get past validation and reach the services and the store.
 */
export function arbitraryFor(schema: JsonSchema, names: NamePool, root: JsonSchema = schema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > MAX_DEPTH) return fc.constant(null);
  const next = (child: JsonSchema) => arbitraryFor(child, names, root, depth + 1);
  if (schema.$ref) return next(resolveRef(schema.$ref, root));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map(next));
  if (schema.allOf?.[0]) return next(schema.allOf[0]);
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => next({ ...schema, type })));
  switch (schema.type) {
    case 'object':
      return objectArbitrary(schema, next);
    case 'array':
      return fc.array(schema.items ? next(schema.items) : fc.jsonValue({ maxDepth: 1 }), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? MAX_ARRAY, MAX_ARRAY)),
      });
    case 'string':
      return stringArbitrary(schema, names);
    case 'integer':
      return fc.integer({ min: bound(schema.minimum ?? schema.exclusiveMinimum, -1000), max: bound(schema.maximum ?? schema.exclusiveMaximum, 1000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArbitrary(schema: JsonSchema, next: (child: JsonSchema) => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const shape = Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, next(child)]));
  const record = fc.record(shape, { requiredKeys: (schema.required ?? []).filter((key) => key in shape) });
  if (typeof schema.additionalProperties !== 'object') return record;
  const extra = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), next(schema.additionalProperties), { maxKeys: 3 });
  return fc.tuple(record, extra).map(([known, more]) => ({ ...more, ...known }));
}

function stringArbitrary(schema: JsonSchema, names: NamePool): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING));
  const text = fc.string({ minLength, maxLength });
  const formatted = formatArbitrary(schema);
  if (formatted) return formatted;
  // Names of things that exist make requests reach deeper than "not found".
  const known = fc.constant(null).map(() => names()).chain((pool) => (pool.length > 0 ? fc.constantFrom(...pool) : text));
  const plain = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
  return fc.oneof({ arbitrary: known, weight: 3 }, { arbitrary: plain, weight: 2 }, { arbitrary: text, weight: 1 });
}

function formatArbitrary(schema: JsonSchema): fc.Arbitrary<string> | undefined {
  switch (schema.format) {
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'email':
      return fc.stringMatching(/^[a-z]{1,8}@[a-z]{1,8}\.(com|org|io)$/);
    case 'uri':
      return fc.webUrl();
    case 'uuid':
      return fc.uuid({ version: 4 });
    default:
      return schema.pattern && !schema.pattern.includes('(?<') ? fc.stringMatching(new RegExp(schema.pattern)) : undefined;
  }
}

function bound(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  return Math.max(-1e6, Math.min(1e6, value));
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema {
  const name = ref.replace(/^#\/\$defs\//, '');
  return ref === '#' ? root : (root.$defs?.[name] ?? {});
}
