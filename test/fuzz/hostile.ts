import fc from 'fast-check';

/** An object whose own, enumerable `__proto__` key survives JSON.stringify (a literal would set the prototype). */
function withProtoKey(value: unknown): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  Object.defineProperty(object, '__proto__', { value, enumerable: true, configurable: true, writable: true });
  return object;
}

function nested(depth: number, leaf: unknown, asArray: boolean): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) value = asArray ? [value] : { a: value };
  return value;
}

/** Strings that have broken parsers, keys, URLs and stores elsewhere. */
export const nastyStrings: readonly string[] = [
  '', ' ', '\t\n', '\u0000', '\uD800', '\uFEFF', '🚩🏳️‍🌈', 'Ω≈ç√∫', 'ñ'.repeat(101), 'x'.repeat(101), 'x'.repeat(5000),
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'null', 'undefined', 'NaN', 'true',
  '../../etc/passwd', '%00', '%2F', '%', '<script>alert(1)</script>', "' OR '1'='1", '${7*7}', '{{7*7}}',
  '1e309', '-0', '0x10', '2024-02-30T00:00:00Z', '2024-13-01T00:00:00Z', '0000-00-00', 'yesterday',
  '1.2.3.4.5', 'v1.2.3', '*', '[]', '*:*.x', 'default:development.', '#', 'a/b', 'a b', 'a?b=c', 'ÄÖÜ',
];

/** Numbers at and past every edge a schema might draw. */
export const edgeNumbers: readonly number[] = [
  -1, 0, -0, 0.5, 1.5, 999.999, 1000, 1001, 101, 2 ** 31, 2 ** 53, 2 ** 53 + 2, -(2 ** 53) - 2, 1e308, -1e308, 5e-324,
];

/** One value that does not belong where it is put: wrong type, edge, huge, deep, exotic. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, [], {}, [null], { '': '' }),
  fc.constantFrom(...nastyStrings),
  fc.constantFrom(...edgeNumbers),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.integer({ min: 2, max: 40 }).map((depth) => nested(depth, 'deep', depth % 2 === 0)),
  fc.constantFrom(200, 2000).map((depth) => nested(depth, 1, true)),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant(null).map(() => withProtoKey({ polluted: true })),
  fc.constant(null).map(() => ({ constructor: { prototype: { polluted: true } } })),
  fc.array(fc.constant('x'), { minLength: 101, maxLength: 300 }),
);

type Path = Array<string | number>;

function pathsOf(value: unknown, path: Path = [], into: Path[] = []): Path[] {
  into.push(path);
  if (Array.isArray(value)) value.forEach((item, index) => pathsOf(item, [...path, index], into));
  else if (value && typeof value === 'object') for (const [key, child] of Object.entries(value)) pathsOf(child, [...path, key], into);
  return into;
}

function rebuild(value: unknown, path: Path, edit: (node: unknown) => unknown): unknown {
  if (path.length === 0) return edit(value);
  const [head, ...rest] = path as [string | number, ...Path];
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? rebuild(item, rest, edit) : item));
  const object = value as Record<string, unknown>;
  return { ...object, [head]: rebuild(object[head], rest, edit) };
}

function removeAt(value: unknown, path: Path): unknown {
  if (path.length === 0) return undefined;
  const parent = path.slice(0, -1);
  const last = path[path.length - 1];
  return rebuild(value, parent, (node) => {
    if (Array.isArray(node)) return node.filter((_, index) => index !== last);
    const { [String(last)]: _gone, ...rest } = node as Record<string, unknown>;
    return rest;
  });
}

/**
 * A valid value with one node broken: replaced by a hostile value, removed, or given a
 * stray key. Bugs hide where most of a request is right.
 */
export function mutate(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, fc.nat(), fc.constantFrom('replace', 'remove', 'stray-key'), hostileValue, fc.constantFrom(...nastyStrings))
    .map(([value, pick, how, hostile, key]) => {
      const paths = pathsOf(value);
      const path = paths[pick % paths.length] as Path;
      if (how === 'remove') return removeAt(value, path);
      if (how === 'stray-key') {
        return rebuild(value, path, (node) =>
          node && typeof node === 'object' && !Array.isArray(node) ? { ...node, [key]: hostile } : hostile,
        );
      }
      return rebuild(value, path, () => hostile);
    });
}
