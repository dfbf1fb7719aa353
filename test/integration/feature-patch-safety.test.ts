import { describe, expect, it } from 'vitest';
import { adminSession, type ApiResponse } from '../support/api.js';
import { featureSteps } from '../support/features.js';

const { call, token } = adminSession();
const steps = featureSteps(call, token);

function expectRefused(res: ApiResponse, message: RegExp): void {
  expect(res.status, res.text.slice(0, 300)).toBe(400);
  expect(res.body.name).toBe('ValidationError');
  expect(res.body.message).toMatch(message);
}

const patchFeature = (feature: string, operations: unknown[]) =>
  call({ method: 'PATCH', path: steps.base('default', feature), token, body: operations });

describe('E9 JSON Patch keeps the limits of PUT', () => {
  it('refuses a type longer than PUT takes, naming the field, and leaves the feature as it was', async () => {
    const feature = await steps.createFeature('default', undefined, { type: 'release' });

    const res = await patchFeature(feature, [{ op: 'replace', path: '/type', value: 'x'.repeat(5000) }]);

    expectRefused(res, /^type: /);
    expect((await steps.getFeature('default', feature)).body.type).toBe('release');
  });

  it('refuses a 90 KB description, naming the field', async () => {
    const feature = await steps.createFeature();

    const res = await patchFeature(feature, [{ op: 'replace', path: '/description', value: 'd'.repeat(90 * 1024) }]);

    expectRefused(res, /^description: /);
    expect((await steps.getFeature('default', feature)).body.description).toBe(null);
  });

  it('still applies a patch within the limits', async () => {
    const feature = await steps.createFeature();

    const res = await patchFeature(feature, [
      { op: 'replace', path: '/description', value: 'd'.repeat(2000) },
      { op: 'replace', path: '/type', value: 'kill-switch' },
    ]);

    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ description: 'd'.repeat(2000), type: 'kill-switch' });
  });
});

describe('JSON Patch paths into the prototype are refused on every patch route', () => {
  const dangerous = [
    { op: 'add', path: '/__proto__/polluted', value: true },
    { op: 'add', path: '/constructor/prototype/polluted', value: true },
    { op: 'replace', path: '/0/__proto__', value: {} },
    { op: 'copy', from: '/__proto__', path: '/description' },
    { op: 'move', from: '/constructor/prototype', path: '/x' },
  ];

  it.each(dangerous)('E9 answers 400 naming the operation for %j', async (operation) => {
    const feature = await steps.createFeature();

    const res = await patchFeature(feature, [operation]);

    expectRefused(res, /^0\.(path|from): must not reach __proto__, constructor or prototype/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(dangerous)('E12 and the per-environment variant patch answer 400 for %j', async (operation) => {
    const feature = await steps.createFeature();

    const all = await call({ method: 'PATCH', path: `${steps.base('default', feature)}/variants`, token, body: [operation] });
    const one = await call({
      method: 'PATCH', path: `${steps.base('default', feature)}/environments/development/variants`, token, body: [operation],
    });

    expectRefused(all, /^0\.(path|from): must not reach __proto__, constructor or prototype/);
    expectRefused(one, /^0\.(path|from): must not reach __proto__, constructor or prototype/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

});
