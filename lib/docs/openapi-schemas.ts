import * as z from 'zod';

export type JsonSchema = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';

/**
 * Turns zod schemas into OpenAPI 3.1 Schema Objects (JSON Schema 2020-12, written by zod 4
 * itself) and collects the named ones into `components.schemas`.
 *
 * A schema is inlined where it is used, unless it refers to itself (a recursive schema) or to
 * a schema registered with `.meta({ id })`: zod then emits `$ref`s to `#` and `#/$defs/...`,
 * which inside an OpenAPI document would point at the document's root. Those schemas move into
 * the components under the name of their first use, and their references are rewritten there.
 */
export class SchemaWriter {
  readonly components: Record<string, JsonSchema> = {};

  /** Registers a schema under a fixed name (the Error object) and answers a reference to it. */
  named(name: string, schema: z.ZodType): JsonSchema {
    this.components[name] = this.convert(schema, name);
    return { $ref: `${COMPONENTS}${name}` };
  }

  /**
   * An inline schema, or a reference when it has to be a component; `useName` names it then,
   * so it must be unique (`<operationId>Request`).
   */
  write(schema: z.ZodType, useName: string): JsonSchema {
    const json = this.convert(schema, useName);
    if (!hasLocalRefs(json)) return json;
    this.components[useName] = json;
    return { $ref: `${COMPONENTS}${useName}` };
  }

  private convert(schema: z.ZodType, rootName: string): JsonSchema {
    // `io: 'input'`: requests are parsed by these schemas (defaults are optional; a transform
    // shows what is sent), and handlers answer a response schema's input type, unparsed.
    // What JSON Schema cannot express (a custom check) becomes an open schema, not an error.
    const { $schema: _dialect, $defs, ...json } = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: 'input',
      unrepresentable: 'any',
    }) as JsonSchema;
    const renames = new Map<string, string>([['#', `${COMPONENTS}${rootName}`]]);
    const definitions = Object.entries(($defs ?? {}) as Record<string, JsonSchema>);
    for (const [defName, definition] of definitions) {
      // zod names anonymous definitions `__schema0`; ids given with .meta() keep their name.
      const wanted = defName.startsWith('__') ? `${rootName}${defName.replace(/^_+schema/, 'Part')}` : defName;
      renames.set(`#/$defs/${defName}`, `${COMPONENTS}${this.freeName(wanted, definition)}`);
    }
    for (const [defName, definition] of definitions) {
      const target = renames.get(`#/$defs/${defName}`)!.slice(COMPONENTS.length);
      this.components[target] = rewriteRefs(definition, renames) as JsonSchema;
    }
    return rewriteRefs(json, renames) as JsonSchema;
  }

  /** `name`, or `name2`, `name3`… when another schema already holds it. */
  private freeName(name: string, schema: JsonSchema): string {
    const same = (candidate: string) => JSON.stringify(this.components[candidate]) === JSON.stringify(schema);
    let candidate = name;
    for (let n = 2; this.components[candidate] && !same(candidate); n += 1) candidate = `${name}${n}`;
    return candidate;
  }
}

function hasLocalRefs(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasLocalRefs);
  if (!value || typeof value !== 'object') return false;
  return Object.entries(value).some(
    ([key, inner]) => (key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENTS)) || hasLocalRefs(inner),
  );
}

function rewriteRefs(value: unknown, renames: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, renames));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' ? (renames.get(inner) ?? inner) : rewriteRefs(inner, renames),
    ]),
  );
}
