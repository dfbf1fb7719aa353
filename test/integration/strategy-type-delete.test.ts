import { describe, expect, it } from 'vitest';
import { adminSession } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { unique } from '../support/services.js';

const { services, call, token } = adminSession();
const steps = featureSteps(call, token);

const path = (name: string) => `/api/admin/strategies/${name}`;
const createType = async (name = unique('custom')) => {
  const res = await call({ method: 'POST', path: '/api/admin/strategies', token, body: { name, parameters: [] } });
  if (res.status !== 201) throw new Error(`strategy type not created: ${res.status} ${res.text}`);
  return name;
};
const deleteType = (name: string) => call({ method: 'DELETE', path: path(name), token });
const listedNames = async () =>
  (await call({ method: 'GET', path: '/api/admin/strategies', token })).body.strategies.map((type: { name: string }) => type.name);

describe('DELETE /api/admin/strategies/{strategyName}', () => {
  it('deletes an unused custom type with 200 and no body; its name is free again', async () => {
    const name = await createType();

    const res = await deleteType(name);

    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect((await call({ method: 'GET', path: path(name), token })).status).toBe(404);
    expect(await listedNames()).not.toContain(name);
    expect((await call({ method: 'POST', path: '/api/admin/strategies', token, body: { name, parameters: [] } })).status).toBe(201);
  });

  it('deletes a deprecated custom type too', async () => {
    const name = await createType();
    await call({ method: 'POST', path: `${path(name)}/deprecate`, token });

    const res = await deleteType(name);

    expect(res.status).toBe(200);
    expect(await listedNames()).not.toContain(name);
  });

  it.each([['default'], ['flexibleRollout'], ['gradualRolloutUserId']])(
    'refuses to delete the built-in type %s with 400 ValidationError, and keeps it',
    async (name) => {
      const res = await deleteType(name);

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ name: 'ValidationError' });
      expect(res.body.message).toContain('built-in');
      expect(await listedNames()).toContain(name);
    },
  );

  it('answers 404 NotFoundError for an unknown type', async () => {
    const name = unique('ghost');

    const res = await deleteType(name);

    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: `Could not find strategy with name ${name}` });
  });

  it('refuses with 409 while a feature strategy uses the type, naming the feature, and deletes once it is removed', async () => {
    const name = await createType();
    const feature = await steps.createFeature();
    const added = await steps.addStrategy('default', feature, 'development', { name, parameters: {} });
    expect(added.status).toBe(200);

    const refused = await deleteType(name);
    const stillListed = await listedNames();
    await call({ method: 'DELETE', path: `${steps.base('default', feature)}/environments/development/strategies/${added.body.id}`, token });
    const deleted = await deleteType(name);

    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(feature);
    expect(stillListed).toContain(name);
    expect(deleted.status).toBe(200);
  });

  it('refuses while an archived feature still holds a strategy of the type, since reviving it would bring the strategy back', async () => {
    const name = await createType();
    const feature = await steps.createFeature();
    await steps.addStrategy('default', feature, 'production', { name, parameters: {} });
    await call({ method: 'DELETE', path: `/api/admin/projects/default/features/${feature}`, token });

    const res = await deleteType(name);

    expect(res.status).toBe(409);
    expect(res.body.message).toContain(feature);
  });

  it('never leaves a feature strategy of a deleted type when a delete races strategies being added', async () => {
    const name = await createType();
    const features = await Promise.all(Array.from({ length: 6 }, () => steps.createFeature()));

    const [deleted, ...added] = await Promise.all([
      deleteType(name),
      ...features.map((feature) => steps.addStrategy('default', feature, 'development', { name, parameters: {} })),
    ]);

    const kept = added.filter((res) => res.status === 200);
    // A 503 (the store kept conflicting, as DynamoDB does under contention) changed nothing.
    expect(added.every((res) => res.status === 200 || res.status === 400 || res.status === 503)).toBe(true);
    if (deleted.status === 200) {
      expect(kept).toEqual([]);
      expect(await listedNames()).not.toContain(name);
    } else {
      expect([409, 503]).toContain(deleted.status);
      expect(await listedNames()).toContain(name);
      if (deleted.status === 409) expect(kept.length).toBeGreaterThan(0);
    }
  });

  it('a feature commit that newly uses a missing custom type fails, so a type deleted after the check cannot be used', async () => {
    const feature = await steps.createFeature();
    const before = await services.featureStore.get(feature);
    const ghost = unique('deleted-type');
    const after = structuredClone(before!);
    after.version += 1;
    after.environments.development = {
      enabled: false,
      variants: [],
      strategies: [{ id: unique('s'), name: ghost, title: null, disabled: false, sortOrder: 0, constraints: [], parameters: {}, variants: [], segments: [] }],
    };

    const outcome = await services.featureStore.commit({ writes: [{ before, after }] });

    expect(outcome).toEqual({ ok: false, reason: 'strategy-type-missing', strategyType: ghost });
  });
});
