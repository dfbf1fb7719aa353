import { describe, expect, it } from 'vitest';
import { NotFound } from '../../lib/errors.js';
import { adminSession } from '../support/api.js';
import { unique } from '../support/services.js';

const { services, call, token } = adminSession();

const createField = (body: Record<string, unknown>) => call({ method: 'POST', path: '/api/admin/context', token, body });

describe('context fields', () => {
  it('lists fields as an array by sort order, with the seeded ones and sessionId offered as stickiness', async () => {
    const res = await call({ method: 'GET', path: '/api/admin/context', token });

    expect(res.status).toBe(200);
    const seeded = ['environment', 'userId', 'appName', 'currentTime', 'sessionId', 'remoteAddress'];
    const names: string[] = res.body.map((field: { name: string }) => field.name);
    expect(names.filter((name) => seeded.includes(name))).toEqual(seeded);
    const orders: number[] = res.body.map((field: { sortOrder: number }) => field.sortOrder);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(res.body.find((field: { name: string }) => field.name === 'sessionId')).toEqual({
      name: 'sessionId', description: expect.any(String), stickiness: true, sortOrder: 4, legalValues: [], createdAt: expect.any(String),
      usedInFeatures: expect.any(Number), usedInProjects: expect.any(Number),
    });
  });

  it('creates a field with 201 and a location header; left-out details take defaults', async () => {
    const name = unique('tenant');

    const res = await createField({ name, legalValues: [{ value: 'acme', description: 'Acme Inc.' }, { value: 'globex' }] });
    const read = await call({ method: 'GET', path: `/api/admin/context/${name}`, token });

    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`context/${name}`);
    expect(res.body).toEqual({
      name, description: null, stickiness: false, sortOrder: 10,
      legalValues: [{ value: 'acme', description: 'Acme Inc.' }, { value: 'globex' }], createdAt: expect.any(String),
    });
    expect(read.body).toEqual(res.body);
  });

  it('refuses a taken name with 409 in Unleash\'s words', async () => {
    const res = await createField({ name: 'userId' });

    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ name: 'NameExistsError', message: 'A context field with that name already exist' });
  });

  it.each([
    [{ name: 'not ok' }, /^name: /],
    [{ name: unique('f'), description: 'x'.repeat(251) }, /^description: /],
    [{ name: unique('f'), legalValues: [{ value: 'a' }, { value: 'a' }] }, /^legalValues: .*only once/],
    [{ name: unique('f'), legalValues: [{ value: 'x'.repeat(101) }] }, /^legalValues\.0\.value: /],
    [{ name: unique('f'), legalValues: [{ value: '' }] }, /^legalValues\.0\.value: /],
  ])('answers 400 naming the property for %j', async (body, message) => {
    const res = await createField(body);

    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('replaces a field with PUT (200); left-out details return to defaults, createdAt stays', async () => {
    const name = unique('plan');
    const created = (await createField({ name, description: 'Plan', stickiness: true, sortOrder: 30 })).body;

    const res = await call({ method: 'PUT', path: `/api/admin/context/${name}`, token, body: { legalValues: [{ value: 'pro' }] } });
    const read = await call({ method: 'GET', path: `/api/admin/context/${name}`, token });

    expect(res.status).toBe(200);
    expect(read.body).toEqual({ name, description: null, stickiness: false, sortOrder: 10, legalValues: [{ value: 'pro' }], createdAt: created.createdAt });
  });

  it('refuses a PUT that renames the field (400) or names an unknown one (404)', async () => {
    const name = unique('keep');
    const ghost = unique('ghost');
    const created = (await createField({ name, description: 'Kept' })).body;

    const renamed = await call({ method: 'PUT', path: `/api/admin/context/${name}`, token, body: { name: 'other' } });
    const unknown = await call({ method: 'PUT', path: `/api/admin/context/${ghost}`, token, body: {} });

    expect(renamed.status).toBe(400);
    expect(renamed.body.name).toBe('ValidationError');
    expect(renamed.body.message).toContain('name: must match the context field in the path');
    expect(unknown.status).toBe(404);
    expect(unknown.body.name).toBe('NotFoundError');
    expect(unknown.body.message).toContain(ghost);
    // Neither PUT wrote: the field is as created, and the unknown one was not made by the PUT.
    expect((await call({ method: 'GET', path: `/api/admin/context/${name}`, token })).body).toEqual(created);
    expect((await call({ method: 'GET', path: `/api/admin/context/${ghost}`, token })).status).toBe(404);
  });

  it('deletes a field with 200, after which it is 404 with Unleash\'s message', async () => {
    const name = unique('temp');
    await createField({ name });

    const res = await call({ method: 'DELETE', path: `/api/admin/context/${name}`, token });
    const after = await call({ method: 'GET', path: `/api/admin/context/${name}`, token });
    const again = await call({ method: 'DELETE', path: `/api/admin/context/${name}`, token });

    expect(res.status).toBe(200);
    expect(after.status).toBe(404);
    expect(after.body.message).toBe(`Could not find Context field with name ${name}`);
    expect(again.status).toBe(404);
  });

  it('gives the feature services a lookup that throws NotFound for an unknown field', async () => {
    const name = unique('nothing');

    await expect(services.contextFields.get(name)).rejects.toThrow(NotFound);
    await expect(services.contextFields.get(name)).rejects.toThrow(`Could not find Context field with name ${name}`);
    expect(await services.contextFields.find('userId')).toMatchObject({ name: 'userId' });
  });
});

describe('tag types', () => {
  const createType = (body: Record<string, unknown>) => call({ method: 'POST', path: '/api/admin/tag-types', token, body });

  it('lists {version: 1, tagTypes} with the seeded simple type', async () => {
    const res = await call({ method: 'GET', path: '/api/admin/tag-types', token });

    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.tagTypes).toContainEqual({ name: 'simple', description: expect.any(String), icon: '#' });
  });

  it('creates a type with 201, reads it as {version: 1, tagType}', async () => {
    const name = unique('team');

    const res = await createType({ name, description: 'Owning team', icon: 'group' });
    const read = await call({ method: 'GET', path: `/api/admin/tag-types/${name}`, token });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name, description: 'Owning team', icon: 'group' });
    expect(read.body).toEqual({ version: 1, tagType: { name, description: 'Owning team', icon: 'group' } });
    expect(await services.tagTypes.exists(name)).toBe(true);
  });

  it('refuses a taken name with 409 naming it, and a bad name with 400', async () => {
    const taken = await createType({ name: 'simple' });
    const short = await createType({ name: 'x' });
    const long = await createType({ name: 'x'.repeat(51) });
    const spaced = await createType({ name: 'a b' });

    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('There already exists a tag-type with the name simple');
    expect([short.status, long.status, spaced.status]).toEqual([400, 400, 400]);
    expect(short.body.message).toMatch(/^name: /);
  });

  it('updates the description and icon with PUT (200), clearing what is left out', async () => {
    const name = unique('area');
    await createType({ name, description: 'Area', icon: 'map' });

    const res = await call({ method: 'PUT', path: `/api/admin/tag-types/${name}`, token, body: { description: 'Product area' } });
    const read = await call({ method: 'GET', path: `/api/admin/tag-types/${name}`, token });

    expect(res.status).toBe(200);
    expect(read.body.tagType).toEqual({ name, description: 'Product area', icon: null });
  });

  it('deletes a type with 200; unknown ones are 404 everywhere', async () => {
    const name = unique('old');
    await createType({ name });
    const ghost = unique('ghost');

    const res = await call({ method: 'DELETE', path: `/api/admin/tag-types/${name}`, token });
    const statuses = await Promise.all([
      call({ method: 'GET', path: `/api/admin/tag-types/${name}`, token }),
      call({ method: 'DELETE', path: `/api/admin/tag-types/${ghost}`, token }),
      call({ method: 'PUT', path: `/api/admin/tag-types/${ghost}`, token, body: {} }),
    ]);

    expect(res.status).toBe(200);
    expect(statuses.map((r) => r.status)).toEqual([404, 404, 404]);
    expect(statuses.map((r) => r.body.name)).toEqual(['NotFoundError', 'NotFoundError', 'NotFoundError']);
    // Gone from the list, and the PUT of an unknown type made none.
    const listed = (await call({ method: 'GET', path: '/api/admin/tag-types', token })).body.tagTypes.map((t: { name: string }) => t.name);
    expect(listed).not.toContain(name);
    expect(listed).not.toContain(ghost);
  });
});
