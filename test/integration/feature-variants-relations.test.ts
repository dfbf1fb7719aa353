import { describe, expect, it } from 'vitest';
import { adminSession } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { unique } from '../support/services.js';

const { call, token } = adminSession();
const steps = featureSteps(call, token);

const variant = (name: string, extra: Record<string, unknown> = {}) => ({ name, weightType: 'variable', weight: 0, stickiness: 'default', ...extra });

describe('feature variants per environment', () => {
  it('normalises weights (fix kept, variable share the rest, remainder to the first) and sorts by name', async () => {
    const name = await steps.createFeature();

    const res = await steps.putVariants('default', name, 'development', [
      variant('c'), variant('b'), variant('a', { weightType: 'fix', weight: 100 }), variant('d'),
    ]);

    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.variants.map((v: { name: string; weight: number }) => [v.name, v.weight])).toEqual([
      ['a', 100], ['b', 300], ['c', 300], ['d', 300],
    ]);
  });

  it('gives three variable variants 334, 333, 333 in input order', async () => {
    const name = await steps.createFeature();

    const res = await steps.putVariants('default', name, 'development', [variant('z'), variant('y'), variant('x')]);

    expect(res.body.variants.map((v: { name: string; weight: number }) => [v.name, v.weight])).toEqual([['x', 333], ['y', 333], ['z', 334]]);
  });

  it.each([
    [[variant('a', { weightType: 'fix', weight: 1000 })], 'variable'],
    [[variant('a', { weightType: 'fix', weight: 900 }), variant('b', { weightType: 'fix', weight: 200 }), variant('c')], '1000'],
    [[variant('a'), variant('a')], 'unique'],
    [[variant('a', { payload: { type: 'json', value: '{nope' } })], 'payload'],
  ])('refuses %j with 400', async (variants, needle) => {
    const name = await steps.createFeature();

    const res = await steps.putVariants('default', name, 'development', variants);

    expect(res.status).toBe(400);
    expect(res.body.message).toContain(needle);
  });

  it('patches one environment with JSON Patch, keeping overrides', async () => {
    const name = await steps.createFeature();
    await steps.putVariants('default', name, 'development', [variant('a')]);

    const res = await call({
      method: 'PATCH', path: `${steps.base('default', name)}/environments/development/variants`, token,
      body: [{ op: 'add', path: '/-', value: variant('b', { overrides: [{ contextName: 'userId', values: ['u1'] }] }) }],
    });
    const read = await call({ method: 'GET', path: `${steps.base('default', name)}/environments/development/variants`, token });

    expect(res.status).toBe(200);
    expect(read.body.variants).toHaveLength(2);
    expect(read.body.variants[1].overrides).toEqual([{ contextName: 'userId', values: ['u1'] }]);
  });

  it('E12 patches every environment in one go and answers {version, variants}', async () => {
    const name = await steps.createFeature();
    await steps.putVariants('default', name, 'production', [variant('p')]);

    const res = await call({
      method: 'PATCH', path: `${steps.base('default', name)}/variants`, token,
      body: [{ op: 'add', path: '/-', value: variant('all') }],
    });
    const dev = await call({ method: 'GET', path: `${steps.base('default', name)}/environments/development/variants`, token });
    const prod = await call({ method: 'GET', path: `${steps.base('default', name)}/environments/production/variants`, token });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, variants: dev.body.variants });
    expect(dev.body.variants.map((v: { name: string }) => v.name)).toEqual(['all']);
    expect(prod.body.variants.map((v: { name: string; weight: number }) => [v.name, v.weight])).toEqual([['all', 500], ['p', 500]]);
  });

  it('E12 changes no environment when the patch fails in one of them', async () => {
    const name = await steps.createFeature();
    await steps.putVariants('default', name, 'production', [variant('p')]);

    const res = await call({
      method: 'PATCH', path: `${steps.base('default', name)}/variants`, token,
      body: [{ op: 'add', path: '/-', value: variant('n') }, { op: 'remove', path: '/1' }],
    });
    const dev = await call({ method: 'GET', path: `${steps.base('default', name)}/environments/development/variants`, token });

    expect(res.status).toBe(400);
    expect(dev.body.variants).toEqual([]);
  });
});

describe('dependencies', () => {
  it('makes a child depend on a parent, and lists the child on the parent', async () => {
    const parent = await steps.createFeature();
    const child = await steps.createFeature();

    const res = await call({ method: 'POST', path: `${steps.base('default', child)}/dependencies`, token, body: { feature: parent, variants: ['blue'] } });
    const childRead = await steps.getFeature('default', child);
    const parentRead = await steps.getFeature('default', parent);

    expect(res.status).toBe(200);
    expect(childRead.body.dependencies).toEqual([{ feature: parent, enabled: true, variants: ['blue'] }]);
    expect(parentRead.body.children).toEqual([child]);
  });

  it('refuses itself, another project, a parent with a parent, a child with children, and an unknown parent', async () => {
    const project = await steps.createProject();
    const [a, b, c] = [await steps.createFeature(), await steps.createFeature(), await steps.createFeature()];
    const elsewhere = await steps.createFeature(project);
    await call({ method: 'POST', path: `${steps.base('default', b)}/dependencies`, token, body: { feature: a } });
    const add = (child: string, parent: string, p = 'default') =>
      call({ method: 'POST', path: `${steps.base(p, child)}/dependencies`, token, body: { feature: parent } });

    const answers = [
      await add(c, c),
      await add(c, elsewhere),
      await add(c, b),
      await add(a, c),
      await add(c, unique('ghost')),
    ];

    expect(answers.map((res) => res.status)).toEqual([403, 403, 403, 403, 403]);
    for (const res of answers) expect(res.body).toMatchObject({ name: 'NoAccessError', message: expect.any(String) });
    // Nothing was added: c depends on nothing, a on nothing, and b keeps only a.
    expect((await steps.getFeature('default', c)).body.dependencies).toEqual([]);
    expect((await steps.getFeature('default', a)).body.dependencies).toEqual([]);
    expect((await steps.getFeature('default', b)).body.dependencies).toEqual([{ feature: a, enabled: true, variants: [] }]);
    expect((await steps.getFeature('default', c)).body.children).toEqual([]);
  });

  it('replaces the parent, and removes one or all dependencies', async () => {
    const [first, second, child] = [await steps.createFeature(), await steps.createFeature(), await steps.createFeature()];
    await call({ method: 'POST', path: `${steps.base('default', child)}/dependencies`, token, body: { feature: first } });
    await call({ method: 'POST', path: `${steps.base('default', child)}/dependencies`, token, body: { feature: second, enabled: false, variants: ['x'] } });

    const replaced = await steps.getFeature('default', child);
    const firstRead = await steps.getFeature('default', first);
    await call({ method: 'DELETE', path: `${steps.base('default', child)}/dependencies/${second}`, token });
    const removed = await steps.getFeature('default', child);
    const secondRead = await steps.getFeature('default', second);

    expect(replaced.body.dependencies).toEqual([{ feature: second, enabled: false, variants: [] }]);
    expect(firstRead.body.children).toEqual([]);
    expect(removed.body.dependencies).toEqual([]);
    expect(secondRead.body.children).toEqual([]);
  });
});

describe('tags', () => {
  it('E13 adds first, then removes, and answers 201 with {version, tags} and a location header', async () => {
    const name = await steps.createFeature();
    await call({ method: 'POST', path: `/api/admin/features/${name}/tags`, token, body: { value: 'old' } });

    const res = await call({
      method: 'PUT', path: `/api/admin/features/${name}/tags`, token,
      body: { addedTags: [{ type: 'simple', value: 'new' }, { type: 'simple', value: 'both' }], removedTags: [{ type: 'simple', value: 'old' }, { type: 'simple', value: 'both' }] },
    });

    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/api/admin/features/${name}/tags`);
    expect(res.body).toEqual({ version: 1, tags: [{ type: 'simple', value: 'new' }] });
  });

  it('refuses an unknown tag type with 400 and an unknown feature with 404', async () => {
    const name = await steps.createFeature();

    const badType = await call({ method: 'PUT', path: `/api/admin/features/${name}/tags`, token, body: { addedTags: [{ type: unique('tt'), value: 'v1' }], removedTags: [] } });
    const unknown = await call({ method: 'PUT', path: `/api/admin/features/${unique('ghost')}/tags`, token, body: { addedTags: [{ type: 'simple', value: 'v1' }], removedTags: [] } });
    const extraKey = await call({ method: 'PUT', path: `/api/admin/features/${name}/tags`, token, body: { addedTags: [], removedTags: [], more: 1 } });

    expect(badType.status).toBe(400);
    expect(badType.body.message).toContain('does not exist');
    expect(unknown.status).toBe(404);
    expect(extraKey.status).toBe(400);
  });

  it('removes one tag with DELETE', async () => {
    const name = await steps.createFeature();
    await call({ method: 'POST', path: `/api/admin/features/${name}/tags`, token, body: { value: 'gone' } });

    const res = await call({ method: 'DELETE', path: `/api/admin/features/${name}/tags/simple/gone`, token });
    const tags = await call({ method: 'GET', path: `/api/admin/features/${name}/tags`, token });

    expect(res.status).toBe(200);
    expect(tags.body.tags).toEqual([]);
  });
});
