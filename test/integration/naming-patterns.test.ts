import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminSession, type ApiResponse } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { unique } from '../support/services.js';

const { call, token } = adminSession();
const steps = featureSteps(call, token);

/**
 * Catastrophic for a backtracking engine: each extra `a` doubles its work on a name with no `b`
 * (34 of them kept one create busy for 162 s). The hex prefix lets each test name its own features.
 */
const NESTED = '[0-9a-f]{8}-(a+)+b';
const hex = () => randomUUID().slice(0, 8);
const allA = () => `${hex()}-${'a'.repeat(34)}`;

const createFeature = (project: string, name: string) =>
  call({ method: 'POST', path: `/api/admin/projects/${project}/features`, token, body: { name } });

function expectRefused(res: ApiResponse, message: RegExp): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.name).toBe('ValidationError');
  expect(res.body.message).toMatch(message);
}

describe('feature naming patterns run on a linear-time engine (RE2 syntax)', () => {
  it('refuses a 34-character name against (a+)+b, takes a matching one, and other requests are answered meanwhile', async () => {
    const project = await steps.createProject({ featureNaming: { pattern: NESTED, example: '0123abcd-aab' } });

    // The pathological create and an unrelated read run together: a stalled engine blocks both.
    const [refusedName, acceptedName] = [allA(), `${hex()}-${'a'.repeat(33)}b`];
    const [refused, other] = await Promise.all([
      createFeature(project, refusedName),
      call({ method: 'GET', path: `/api/admin/projects/${project}`, token }),
    ]);
    const accepted = await createFeature(project, acceptedName);

    expectRefused(refused, /^name: the project .* requires feature names to match \[0-9a-f\]\{8\}-\(a\+\)\+b; for example 0123abcd-aab/);
    expect((await steps.getFeature(project, refusedName)).status).toBe(404);
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ name: project });
    expect(accepted.status, accepted.text).toBe(201);
    expect((await steps.getFeature(project, acceptedName)).body).toMatchObject({ name: acceptedName, project });
  });

  it('matches the whole name, as before: a name that only contains a match is refused', async () => {
    const project = await steps.createProject({ featureNaming: { pattern: 'team-[a-z]+|ops-[0-9]+' } });

    const [partialName, wholeName] = [`x-ops-1-${unique('y')}`, `ops-${parseInt(hex(), 16)}`];
    const partial = await createFeature(project, partialName);
    const whole = await createFeature(project, wholeName);

    expectRefused(partial, /^name: /);
    expect((await steps.getFeature(project, partialName)).status).toBe(404);
    expect(whole.status, whole.text).toBe(201);
    expect((await steps.getFeature(project, wholeName)).body).toMatchObject({ name: wholeName, project });
  });

  it.each([
    ['a backreference', '([a-z])\\1'],
    ['a lookahead', '(?=team-)[a-z-]+'],
    ['a lookbehind', '[a-z]+(?<=x)'],
  ])('refuses %s at save time with 400 naming featureNaming.pattern, on create and on update', async (_what, pattern) => {
    const id = unique('p');
    const project = await steps.createProject();

    const created = await call({ method: 'POST', path: '/api/admin/projects', token, body: { id, name: id, featureNaming: { pattern } } });
    const updated = await call({ method: 'PUT', path: `/api/admin/projects/${project}`, token, body: { name: project, featureNaming: { pattern } } });

    expectRefused(created, /^featureNaming\.pattern: is not a valid RE2 regular expression/);
    expectRefused(updated, /^featureNaming\.pattern: is not a valid RE2 regular expression/);
    expect((await call({ method: 'GET', path: `/api/admin/projects/${id}`, token })).status).toBe(404);
    // The existing project kept its settings: a feature of any name is still taken.
    expect((await createFeature(project, unique('free'))).status).toBe(201);
  });

  it('refuses a pattern whose compiled program is too large to run on every name', async () => {
    const id = unique('p');
    const pattern = '(.{1,1000})'.repeat(5);

    const res = await call({ method: 'POST', path: '/api/admin/projects', token, body: { id, name: id, featureNaming: { pattern } } });

    expectRefused(res, /^featureNaming\.pattern: is too complex/);
  });

  it('checks an import against the same engine: the pathological name is listed, the matching one is not', async () => {
    const project = await steps.createProject({ featureNaming: { pattern: NESTED } });
    const [stalls, fits] = [allA(), `${hex()}-aab`];
    const data = { features: [{ name: stalls, type: 'release' }, { name: fits, type: 'release' }], featureStrategies: [], tagTypes: [] };

    const res = await call({ method: 'POST', path: '/api/admin/features-batch/validate', token, body: { project, environment: 'development', data } });

    expect(res.status, res.text).toBe(200);
    const naming = res.body.errors.find((e: { message: string }) => e.message.includes('naming pattern'));
    expect(naming.affectedItems).toEqual([stalls]);
  });
});
