import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../../lib/route-table.js';
import type { RouteSpec } from '../../lib/http/route.js';

type Schema = { type?: string | string[]; maxLength?: number; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };

/** Properties that name things: they become keys, or are looked up by them. */
const NAME_PROPERTIES = new Set(['name', 'feature', 'featureName', 'project', 'projects', 'environment', 'environments', 'features', 'contextName', 'tagType']);

/**
 * `name` in these bodies is only compared with the path (a different one is refused), and the
 * import's `data` is an export document checked item by item and bounded by its 500 KB limit.
 */
const EXEMPT = [/^update(Feature|ContextField|ProjectContextField|TagType)\.name$/, /^(importFeatures|validateImport)\.data\./];

function unboundedNames(schema: Schema, path: string, found: string[] = []): string[] {
  for (const alternative of schema.anyOf ?? []) unboundedNames(alternative, path, found);
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const at = `${path}.${key}`;
    const leaf = child.items ?? child;
    const isString = [leaf.type].flat().includes('string') || (leaf.anyOf ?? []).some((alt) => [alt.type].flat().includes('string'));
    const alternatives = leaf.anyOf ?? [];
    const bounded = leaf.maxLength !== undefined || (alternatives.length > 0 && alternatives.every((alt) => alt.type === 'null' || alt.maxLength !== undefined));
    if (NAME_PROPERTIES.has(key) && isString && !bounded && !EXEMPT.some((rule) => rule.test(at))) found.push(at);
    unboundedNames(child.items ?? child, at, found);
  }
  return found;
}

describe('request schemas', () => {
  it('bound every name they take (100 characters for names, as Unleash), so none reaches a key unchecked', () => {
    const found = Object.entries(routeTable as Record<string, RouteSpec>).flatMap(([id, spec]) =>
      spec.body ? unboundedNames(z.toJSONSchema(spec.body, { io: 'input', unrepresentable: 'any' }) as Schema, id) : [],
    );

    expect(found).toEqual([]);
  });
});
