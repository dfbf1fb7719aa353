import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { isolatedServices, putFeature, rollout, sdkToken } from '../support/client.js';
import { adminToken, unique } from '../support/services.js';
import type { Services } from '../../local/app-services.js';

let services: Services;
let call: ReturnType<typeof apiClient>;
let admin: string;
let client: string;

beforeAll(async () => {
  services = await isolatedServices();
  call = apiClient(services);
  admin = await adminToken(services);
  client = await sdkToken(services);
});

const get = (path: string, token: string, headers: Record<string, string> = {}) =>
  call({ method: 'GET', path, token, headers });
const names = (res: { body: { features: Array<{ name: string }> } }) => res.body.features.map((f) => f.name);

describe('E17 scope from the token', () => {
  it('serves an SDK token its own environment and ignores ?environment', async () => {
    const name = unique('prod-only');
    await putFeature(services, {
      name, environments: { production: { enabled: true, strategies: [rollout()], variants: [] } },
    });

    const res = await get(`/api/client/features?namePrefix=${name}&environment=production`, client);

    expect(res.status).toBe(200);
    expect(res.body.features).toEqual([expect.objectContaining({ name, enabled: false, strategies: [] })]);
    expect(res.body.query).toEqual({ environment: 'development', inlineSegmentConstraints: true, namePrefix: name });
  });

  it('serves an admin token ?environment, or development when it names none', async () => {
    const name = unique('admin-env');
    await putFeature(services, {
      name, environments: { production: { enabled: true, strategies: [rollout()], variants: [] } },
    });

    const production = await get(`/api/client/features?namePrefix=${name}&environment=production`, admin);
    const fallback = await get(`/api/client/features?namePrefix=${name}`, admin);

    expect(production.body.features[0]).toMatchObject({ enabled: true, strategies: [expect.objectContaining({ name: 'flexibleRollout' })] });
    expect(production.body.query.environment).toBe('production');
    expect(fallback.body.features[0]).toMatchObject({ enabled: false, strategies: [] });
    expect(fallback.body.query.environment).toBe('development');
  });

  it('filters by repeated ?project for a token on every project', async () => {
    const prefix = unique('multi');
    const [a, b, c] = [unique('pa'), unique('pb'), unique('pc')];
    for (const project of [a, b, c]) await putFeature(services, { name: `${prefix}-${project}`, project });

    const res = await get(`/api/client/features?namePrefix=${prefix}&project=${a}&project=${b}`, client);

    expect(names(res)).toEqual([`${prefix}-${a}`, `${prefix}-${b}`].sort());
    expect(res.body.query.project).toEqual([a, b].sort());
  });

  it('serves a project-scoped token only its project, whatever ?project says', async () => {
    const prefix = unique('scoped');
    const other = unique('other');
    await putFeature(services, { name: `${prefix}-mine` });
    await putFeature(services, { name: `${prefix}-theirs`, project: other });
    const scoped = await sdkToken(services, { projects: ['default'] });

    const res = await get(`/api/client/features?namePrefix=${prefix}&project=${other}`, scoped);

    expect(names(res)).toEqual([`${prefix}-mine`]);
    expect(res.body.query.project).toEqual(['default']);
  });

  it('serves backend tokens like client tokens', async () => {
    const name = unique('backend');
    await putFeature(services, { name });
    const backend = await sdkToken(services, { type: 'backend', environment: 'production' });

    const res = await get(`/api/client/features?namePrefix=${name}`, backend);

    expect(res.status).toBe(200);
    expect(res.body.features[0]).toMatchObject({ name, enabled: false });
  });

  it('leaves out archived features and filters by tag', async () => {
    const prefix = unique('tagged');
    await putFeature(services, { name: `${prefix}-beta`, tags: [{ type: 'simple', value: 'beta' }] });
    await putFeature(services, { name: `${prefix}-plain` });
    await putFeature(services, { name: `${prefix}-gone`, archived: true, tags: [{ type: 'simple', value: 'beta' }] });

    const all = await get(`/api/client/features?namePrefix=${prefix}`, client);
    const tagged = await get(`/api/client/features?namePrefix=${prefix}&tag=simple:beta`, client);

    expect(names(all)).toEqual([`${prefix}-beta`, `${prefix}-plain`]);
    expect(names(tagged)).toEqual([`${prefix}-beta`]);
  });

  it('refuses a tag that is not type:value with 400 ValidationError naming it', async () => {
    const res = await get('/api/client/features?tag=beta', client);

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'ValidationError', message: expect.stringContaining('tag') });
  });

  it('sends segments as a list only to SDKs that speak client spec 4.2.0 or later', async () => {
    const listed = await get('/api/client/features?namePrefix=none', client, { 'Unleash-Client-Spec': '5.2.0' });
    const inline = await get('/api/client/features?namePrefix=none', client, { 'Unleash-Client-Spec': '4.1.0' });

    expect(listed.body).toMatchObject({ segments: [], query: { inlineSegmentConstraints: false } });
    expect(inline.body).not.toHaveProperty('segments');
    expect(inline.body.query.inlineSegmentConstraints).toBe(true);
  });

  it('asks for a token with 401', async () => {
    const res = await call({ method: 'GET', path: '/api/client/features' });

    expect(res.status).toBe(401);
    expect(res.body.name).toBe('AuthenticationRequired');
  });
});

describe('E17 ETag and 304', () => {
  it('answers with an ETag of query hash and revision, and 304 with no body when it matches', async () => {
    const first = await get('/api/client/features', client, { 'Unleash-Client-Spec': '5.2.0' });
    const { etag, queryHash, revisionId } = first.body.meta;

    const again = await get('/api/client/features', client, { 'Unleash-Client-Spec': '5.2.0', 'If-None-Match': etag });

    expect(first.headers.etag).toBe(etag);
    expect(etag).toBe(`"${queryHash}:${revisionId}"`);
    expect(revisionId).toBe(await services.revisions.current());
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers['content-type']).toBeUndefined();
  });

  it('serves an admin write on the very next poll (read-after-write) with a new ETag', async () => {
    const name = unique('raw');
    const before = await get('/api/client/features', client);

    await putFeature(services, { name });
    const after = await get('/api/client/features', client, { 'If-None-Match': before.headers.etag as string });

    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(names(after)).toContain(name);
  });

  it('gives different scopes and segment modes different ETags', async () => {
    const scoped = await sdkToken(services, { projects: ['default'] });

    const tags = await Promise.all([
      get('/api/client/features', client),
      get('/api/client/features', scoped),
      get('/api/client/features', client, { 'Unleash-Client-Spec': '5.2.0' }),
    ]);

    expect(new Set(tags.map((res) => res.headers.etag)).size).toBe(3);
  });

  it('answers 200 when If-None-Match differs in any way', async () => {
    const { headers, body } = await get('/api/client/features', client);

    const weak = await get('/api/client/features', client, { 'If-None-Match': `W/${headers.etag}` });

    expect(weak.status).toBe(200);
    // The whole payload again, under the same ETag: a miss is a full answer, not an empty one.
    expect(weak.headers.etag).toBe(headers.etag);
    expect(weak.body).toEqual(body);
  });
});

describe('E18 one feature', () => {
  it('answers the client feature alone, with no envelope', async () => {
    const name = unique('single');
    await putFeature(services, { name, description: 'One' });

    const res = await get(`/api/client/features/${name}`, client);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name, description: 'One', enabled: true, project: 'default' });
    expect(res.body).not.toHaveProperty('features');
    expect(res.headers.etag).toBeUndefined();
  });

  it('answers 404 NotFoundError for a missing, archived or out-of-scope feature', async () => {
    const archived = unique('archived');
    const elsewhere = unique('elsewhere');
    await putFeature(services, { name: archived, archived: true });
    await putFeature(services, { name: elsewhere, project: unique('proj') });
    const scoped = await sdkToken(services, { projects: ['default'] });

    const results = await Promise.all([
      get(`/api/client/features/${unique('missing')}`, client),
      get(`/api/client/features/${archived}`, client),
      get(`/api/client/features/${elsewhere}`, scoped),
    ]);

    for (const res of results) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ name: 'NotFoundError', message: expect.stringMatching(/^Could not find feature toggle /) });
    }
  });
});
