/**
 * One comparable form for what two servers answer about the same thing: fields one side adds
 * (ids, timestamps, counts, sort orders), defaults one side spells out and the other leaves out
 * (`inverted: false`, `title: null`, `description: null` against `""`), and order where order
 * means nothing (a constraint's values, tags, dependencies) are taken away, so what is left
 * differs only when behaviour or content does.
 */

export interface WireConstraint {
  contextName: string;
  operator: string;
  values?: string[];
  value?: string;
  inverted?: boolean;
  caseInsensitive?: boolean;
}

export interface WireVariant {
  name: string;
  weight?: number;
  weightType?: string;
  stickiness?: string;
  payload?: { type: string; value: string } | null;
  overrides?: Array<{ contextName: string; values: string[] }>;
}

export const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Operators that take one `value`; the others take `values`. */
const SINGLE_VALUE = /^(NUM_|DATE_|SEMVER_)/;

export function normaliseConstraint(constraint: WireConstraint) {
  const single = SINGLE_VALUE.test(constraint.operator);
  return {
    contextName: constraint.contextName,
    operator: constraint.operator,
    ...(single ? { value: constraint.value ?? constraint.values?.[0] ?? '' } : { values: [...(constraint.values ?? [])].sort() }),
    inverted: constraint.inverted === true,
    caseInsensitive: constraint.caseInsensitive === true,
  };
}

/**
 * Variants as an SDK sees them: weights as the server answers them (both sides spread a
 * variable weight the same way), a missing stickiness as `default`, no payload as null.
 */
export function normaliseVariant(variant: WireVariant) {
  return {
    name: variant.name,
    weight: variant.weight ?? 0,
    weightType: variant.weightType ?? 'variable',
    stickiness: variant.stickiness ?? 'default',
    payload: variant.payload ? { type: variant.payload.type, value: variant.payload.value } : null,
    overrides: (variant.overrides ?? []).map((override) => ({ contextName: override.contextName, values: [...override.values].sort() }))
      .sort((a, b) => a.contextName.localeCompare(b.contextName)),
  };
}

/** Parameters as strings by name; an empty `groupId` counts as absent. */
export function normaliseParameters(parameters: Record<string, unknown> | undefined): Record<string, string> {
  const entries = Object.entries(parameters ?? {})
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([key, value]) => [key, String(value)] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  return Object.fromEntries(entries);
}

export interface WireDependency {
  feature: string;
  enabled?: boolean;
  variants?: string[];
}

/**
 * Dependencies by parent, each once: Unleash 7.6.5's SDK answer can list a child's dependency
 * twice (the migration test met it), which an SDK evaluates as the one it is.
 */
export function normaliseDependencies(dependencies: WireDependency[] | undefined) {
  const unique = new Map((dependencies ?? []).map((dependency) => {
    const normal = { feature: dependency.feature, enabled: dependency.enabled !== false, variants: [...(dependency.variants ?? [])].sort() };
    return [stable(normal), normal] as const;
  }));
  return [...unique.values()].sort((a, b) => a.feature.localeCompare(b.feature));
}

/**
 * The fields of two values that differ, as dotted paths (`environments.production.strategies`),
 * down to `depth` levels of objects; arrays compare whole, their order included.
 */
export function differences(left: unknown, right: unknown, path = '', depth = 3): string[] {
  if (stable(left) === stable(right)) return [];
  if (depth > 0 && isPlainObject(left) && isPlainObject(right)) {
    const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
    return keys.flatMap((key) => differences(left[key], right[key], path === '' ? key : `${path}.${key}`, depth - 1));
  }
  return [path === '' ? '(whole)' : path];
}

/** JSON with keys in order, so two equal values always print the same. */
export function stable(value: unknown): string {
  return JSON.stringify(value, (_, inner) =>
    isPlainObject(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b))) : inner,
  ) ?? 'undefined';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
