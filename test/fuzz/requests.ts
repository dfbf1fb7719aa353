import fc from 'fast-check';
import type { RouteSpec } from '../../lib/http/route.js';
import type { ApiRequest } from '../support/api.js';
import { hostileValue, mutate, nastyStrings } from './hostile.js';
import { arbitraryFor, jsonSchemaOf, type NamePool } from './schema-arbitrary.js';

/** What the fuzz setup made, by path parameter name, so paths can name things that exist. */
export interface World {
  adminToken: string;
  clientToken: string;
  /** Known values per path parameter name (`projectId`, `featureName`, …). */
  params: Record<string, string[]>;
  /** Every known name, for strings in bodies and queries. */
  names: NamePool;
}

/** Above every body limit of the API (the largest is 500 KB), so it must always be a 413. */
export const OVERSIZED_BODY = `{"pad":"${'x'.repeat(600 * 1024)}"}`;

const MALFORMED_BODIES = ['', ' ', '{', '}', 'null', '[]', '"text"', '{"a":1}{', 'NaN', '\u0000', '{"a":1,}', "{'a':1}", '[1,2', '\uFEFF{}'];
const CONTENT_TYPES = ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/json-patch+json', 'multipart/form-data', ''];

/** Percent-encodes as a client would; a lone surrogate becomes the invalid UTF-8 a sloppy client sends. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return `${encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, ''))}%ED%A0%80`;
  }
}

function paramValue(world: World, name: string): fc.Arbitrary<string> {
  const known = world.params[name] ?? [];
  const nasty = nastyStrings.filter((text) => text.length > 0);
  return fc.oneof(
    { arbitrary: known.length > 0 ? fc.constantFrom(...known) : fc.constant('missing'), weight: 6 },
    { arbitrary: fc.constantFrom(...nasty), weight: 2 },
    { arbitrary: fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }), weight: 1 },
    { arbitrary: fc.integer({ min: -5, max: 1e6 }).map(String), weight: 1 },
    { arbitrary: fc.constant('p'.repeat(1500)), weight: 1 },
  );
}

/** The route's path with every `{param}` filled (encoded as a client would), and a greedy tail. */
function pathFor(spec: RouteSpec, world: World): fc.Arbitrary<string> {
  const names = [...spec.path.matchAll(/\{(\w+)\+?\}/g)].map((match) => match[1] as string);
  const tail = fc.array(fc.oneof(fc.stringMatching(/^[a-z0-9-]{1,12}$/), fc.constantFrom(...nastyStrings.filter(Boolean))), { minLength: 1, maxLength: 4 });
  const values = names.map((name) =>
    name === 'proxy' ? tail.map((segments) => segments.map(encode).join('/')) : paramValue(world, name).map(encode),
  );
  return fc.tuple(...values).map((filled) => {
    let index = 0;
    return spec.path.replace(/\{\w+\+?\}/g, () => filled[index++] as string);
  });
}

function queryFor(spec: RouteSpec, world: World): fc.Arbitrary<string> {
  const random = fc.dictionary(fc.constantFrom('project', 'environment', 'namePrefix', 'tag', 'archived', 'format', 'x', '__proto__'), fc.constantFrom(...nastyStrings), { maxKeys: 3 });
  const fromSchema = spec.query ? arbitraryFor(jsonSchemaOf(spec.query), world.names) : fc.constant({});
  const options = spec.query ? [fromSchema, mutate(fromSchema), random] : [random];
  return fc
    .oneof({ arbitrary: fc.constant({}), weight: 2 }, ...options.map((arbitrary) => ({ arbitrary: arbitrary as fc.Arbitrary<unknown>, weight: 2 })))
    .map((query) => {
      const entries = Object.entries((query ?? {}) as Record<string, unknown>).filter(([, value]) => value !== undefined);
      return entries.map(([key, value]) => `${encode(key)}=${encode(String(value))}`).join('&');
    });
}

type BodyPart = Pick<ApiRequest, 'body' | 'rawBody' | 'headers'>;

function bodyFor(spec: RouteSpec, world: World): fc.Arbitrary<BodyPart> {
  const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((value): BodyPart => ({ rawBody: JSON.stringify(value) ?? '', headers: { 'content-type': 'application/json' } }));
  const malformed = fc.constantFrom(...MALFORMED_BODIES).map((rawBody): BodyPart => ({ rawBody, headers: { 'content-type': 'application/json' } }));
  const wrongType = fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(...CONTENT_TYPES)).map(([value, type]): BodyPart => ({
    rawBody: JSON.stringify(value), headers: type ? { 'content-type': type } : {},
  }));
  const oversized = fc.constant<BodyPart>({ rawBody: OVERSIZED_BODY, headers: { 'content-type': 'application/json' } });
  if (!spec.body) {
    return fc.oneof({ arbitrary: fc.constant<BodyPart>({}), weight: 8 }, { arbitrary: json(fc.jsonValue({ maxDepth: 2 })), weight: 1 }, { arbitrary: wrongType, weight: 1 });
  }
  const valid = arbitraryFor(jsonSchemaOf(spec.body), world.names);
  return fc.oneof(
    { arbitrary: json(valid), weight: 6 },
    { arbitrary: json(mutate(valid)), weight: 8 },
    { arbitrary: json(hostileValue), weight: 1 },
    { arbitrary: malformed, weight: 1 },
    { arbitrary: wrongType, weight: 1 },
    { arbitrary: fc.constant<BodyPart>({}), weight: 1 },
    { arbitrary: oversized, weight: 1 },
  );
}

function tokenFor(world: World): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: fc.constant(world.adminToken), weight: 40 },
    { arbitrary: fc.constant(`Bearer ${world.adminToken}`), weight: 1 },
    { arbitrary: fc.constant(world.clientToken), weight: 2 },
    { arbitrary: fc.constant(undefined), weight: 2 },
    { arbitrary: fc.constantFrom('', ' ', '*:*.wrong', 'Bearer', 'x'.repeat(5000), '\u0000', 'default:development.'), weight: 2 },
  );
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Requests for one route: its path, query, body, content type and token, valid and not. */
export function requestsFor(spec: RouteSpec, world: World): fc.Arbitrary<ApiRequest> {
  const method = spec.method === 'ANY' ? fc.constantFrom(...METHODS) : fc.constant(spec.method);
  return fc
    .record({ method, path: pathFor(spec, world), query: queryFor(spec, world), body: bodyFor(spec, world), token: tokenFor(world) })
    .map(({ method: verb, path, query, body, token }): ApiRequest => ({
      method: verb,
      path: query ? `${path}?${query}` : path,
      token,
      ...body,
    }));
}
