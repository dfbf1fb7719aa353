import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { illFormedIn, refuseIllFormedText, toWellFormedJson } from '../../lib/http/well-formed.js';

const LONE = '\ud800';

describe('well-formed Unicode in parsed JSON', () => {
  it('finds nothing in text with surrogate pairs, and finds lone halves of either kind', () => {
    expect(illFormedIn({ a: ['🚩', '𝔘', 'ñ'] })).toBeUndefined();
    expect(illFormedIn({ a: ['ok', `x${LONE}`] })).toEqual({ path: ['a', 1], inKey: false });
    expect(illFormedIn(['\udc00x'])).toEqual({ path: [0], inKey: false });
  });

  it('names the object that holds an ill-formed key', () => {
    expect(illFormedIn({ parameters: { [`k${LONE}`]: 'v' } })).toEqual({ path: ['parameters'], inKey: true });
  });

  it('walks a body nested deeper than the call stack would allow', () => {
    let deep: unknown = LONE;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];

    expect(illFormedIn(deep)?.path).toHaveLength(100_000);
  });

  it('replaces lone surrogates by U+FFFD for the lenient routes, keeping a __proto__ key a plain property', () => {
    const parsed = JSON.parse(`{"appName":"a\\ud800","__proto__":{"x":"\\udc00"},"k\\ud800":1}`);

    const fixed = toWellFormedJson(parsed) as Record<string, unknown>;

    expect(fixed.appName).toBe('a\ufffd');
    expect(Object.getOwnPropertyDescriptor(fixed, '__proto__')?.value).toEqual({ x: '\ufffd' });
    expect(fixed['k\ufffd']).toBe(1);
    expect(Object.getPrototypeOf(fixed)).toBe(Object.prototype);
  });

  it('hands a well-formed body back untouched', () => {
    const body = { appName: 'app', bucket: { toggles: { f: { yes: 1, no: 0 } } } };

    expect(toWellFormedJson(body)).toBe(body);
  });
});

describe('the refusal', () => {
  const event = (overrides: Partial<APIGatewayProxyEventV2> = {}) => ({ ...baseEvent, ...overrides }) as APIGatewayProxyEventV2;
  const baseEvent = { rawPath: '/', headers: {}, requestContext: {} };

  it('names a path parameter, a query parameter or the body place, as the schema messages do', () => {
    expect(() => refuseIllFormedText(event({ pathParameters: { featureName: LONE } }), undefined)).toThrow(/^featureName: must be well-formed Unicode/);
    expect(() => refuseIllFormedText(event({ queryStringParameters: { namePrefix: LONE } }), undefined)).toThrow(/^namePrefix: /);
    expect(() => refuseIllFormedText(event(), [{ value: { name: LONE } }])).toThrow(/^0\.value\.name: /);
    expect(() => refuseIllFormedText(event(), LONE)).toThrow(/^\(body\): /);
    expect(() => refuseIllFormedText(event(), { ok: 'fine' })).not.toThrow();
  });

  it('keeps the message short for a deeply nested place', () => {
    let deep: unknown = LONE;
    for (let level = 0; level < 10_000; level += 1) deep = [deep];

    expect(() => refuseIllFormedText(event(), deep)).toThrow(/^0\.0\.0\.0\.0\.0\.…\.0\.0\.0\.0\.0: /);
  });
});
