import { describe, expect, it } from 'vitest';
import { adminSession, apiClient } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { projectSteps } from '../support/projects.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { adminToken, freshInstanceServices, testServices, unique } from '../support/services.js';

const { call, token, services } = adminSession();
const steps = featureSteps(call, token);
const projects = projectSteps(call, token);
const get = (path: string) => call({ method: 'GET', path, token });
const post = (path: string, body: unknown) => call({ method: 'POST', path, token, body });
const variant = (name: string) => ({ name, weightType: 'variable', weight: 0, stickiness: 'default' });

describe("a feature's dependency options", () => {
  it('offers the active features of its project without a parent of their own, by name', async () => {
    const project = await projects.createProject();
    const [child, parent, other, hasParent, archived] = await Promise.all(
      ['c', 'b', 'a', 'd', 'e'].map((prefix) => steps.createFeature(project, unique(prefix))),
    );
    await post(`${steps.base(project, hasParent!)}/dependencies`, { feature: parent });
    await call({ method: 'DELETE', path: steps.base(project, archived!), token });

    const res = await get(`${steps.base(project, child!)}/parents`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual([other, parent].sort());
  });

  it("lists the variant names of a parent's environments and strategies once each, by name", async () => {
    const parent = await steps.createFeature();
    await steps.putVariants('default', parent, 'development', [variant('blue'), variant('amber')]);
    await steps.addStrategy('default', parent, 'production', {
      name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: parent }, variants: [{ ...variant('blue'), weight: 1000 }, { ...variant('cyan'), weight: 0 }],
    });

    const res = await get(`${steps.base('default', parent)}/parent-variants`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual(['amber', 'blue', 'cyan']);
  });

  it('tells whether any feature of a project depends on another', async () => {
    const project = await projects.createProject();
    const parent = await steps.createFeature(project);
    const child = await steps.createFeature(project);

    const before = await get(`/api/admin/projects/${project}/dependencies`);
    await post(`${steps.base(project, child)}/dependencies`, { feature: parent });
    const after = await get(`/api/admin/projects/${project}/dependencies`);

    expect([before.body, after.body]).toEqual([false, true]);
  });

  it('answers 404 for the parent options of a feature that is not in the project', async () => {
    const missing = unique('missing');
    const res = await get(`${steps.base('default', missing)}/parents`);

    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
    expect(res.body.message).toContain(missing);
  });

  it('answers no parent variants for a name that is no feature of the project, as Unleash answers any name', async () => {
    const elsewhere = await steps.createFeature(await projects.createProject());

    const missing = await get(`${steps.base('default', unique('missing'))}/parent-variants`);
    const otherProject = await get(`${steps.base('default', elsewhere)}/parent-variants`);

    expect([missing.status, missing.body, otherProject.status, otherProject.body]).toEqual([200, [], 200, []]);
  });
});

describe('GET /api/admin/projects/{projectId}/overview', () => {
  it('counts features by type and follows the onboarding steps', async () => {
    const project = await projects.createProject();
    const empty = await get(`/api/admin/projects/${project}/overview`);
    const first = await steps.createFeature(project, unique('first'), { type: 'experiment' });
    await steps.createFeature(project, unique('second'), { type: 'release' });
    await steps.createFeature(project, unique('third'), { type: 'release' });

    const created = await get(`/api/admin/projects/${project}/overview`);
    await services.metrics.markSeen([{ feature: first, environment: 'development', at: new Date().toISOString() }]);
    const seen = await get(`/api/admin/projects/${project}/overview`);

    expect(empty.status).toBe(200);
    expect(empty.body.onboardingStatus).toEqual({ status: 'onboarding-started' });
    expect(empty.body.featureTypeCounts).toEqual([]);
    expect(created.body).toMatchObject({
      version: 1, name: `Project ${project}`, health: 100, technicalDebt: 0, members: 0, favorite: false, linkTemplates: [],
      featureTypeCounts: [{ type: 'experiment', count: 1 }, { type: 'release', count: 2 }],
      onboardingStatus: { status: 'first-flag-created', feature: first },
      environments: [{ environment: 'development' }, { environment: 'production' }],
    });
    expect(created.body.stats.createdCurrentWindow).toBe(3);
    expect(created.body).not.toHaveProperty('features');
    expect(seen.body.onboardingStatus).toEqual({ status: 'onboarded' });
  });

  it('answers 404 for a project that does not exist', async () => {
    const nowhere = unique('nowhere');
    const res = await get(`/api/admin/projects/${nowhere}/overview`);

    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
    expect(res.body.message).toContain(nowhere);
  });
});

describe("a project's context fields and environments", () => {
  it('lists no context field of its own, and the instance ones with include=root', async () => {
    const own = await get('/api/admin/projects/default/context');
    const root = await get('/api/admin/projects/default/context?include=ROOT');
    const all = await get('/api/admin/context');

    expect(own.status).toBe(200);
    expect(own.body).toEqual([]);
    expect(root.body).toEqual(all.body);
    expect(root.body.map((field: { name: string }) => field.name)).toContain('userId');
  });

  it('answers 404 for the context of a project that does not exist', async () => {
    const nowhere = unique('nowhere');
    const res = await get(`/api/admin/projects/${nowhere}/context?include=root`);

    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
    expect(res.body.message).toContain(nowhere);
  });

  it('shows every environment with whether the project uses it, its tokens there and its features on there', async () => {
    // A table of its own: tokens for every project that other test files make meanwhile count too.
    const instance = await freshInstanceServices();
    const own = apiClient(instance);
    const ownToken = await adminToken(instance);
    const ownSteps = featureSteps(own, ownToken);
    const project = await projectSteps(own, ownToken).createProject({ environments: ['development'] });
    const on = await ownSteps.createFeature(project);
    await ownSteps.createFeature(project);
    await ownSteps.turn(project, on, 'development', 'on');
    for (const environment of ['development', 'production']) {
      await own({ method: 'POST', path: '/api/admin/api-tokens', token: ownToken, body: { tokenName: unique('t'), type: 'client', environment, projects: [project] } });
    }

    const res = await own({ method: 'GET', path: `/api/admin/environments/project/${project}`, token: ownToken });
    const byName = Object.fromEntries(res.body.environments.map((e: { name: string }) => [e.name, e]));

    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(byName.development).toMatchObject({ visible: true, projectEnabledToggleCount: 1, projectApiTokenCount: 1, type: 'development' });
    expect(byName.production).toMatchObject({ visible: false, projectEnabledToggleCount: 0, projectApiTokenCount: 1 });
    expect(byName.development).not.toHaveProperty('createdAt');
  });

  it('answers 404 for the environments of a project that does not exist', async () => {
    const nowhere = unique('nowhere');
    const res = await get(`/api/admin/environments/project/${nowhere}`);

    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
    expect(res.body.message).toContain(nowhere);
  });
});

describe('tags in use', () => {
  it('lists tags created and tags put on features, by type, and keeps them when features drop them', async () => {
    const type = unique('team');
    await post('/api/admin/tag-types', { name: type });
    const feature = await steps.createFeature();
    const created = await post('/api/admin/tags', { type, value: 'payments' });
    await post(`/api/admin/features/${feature}/tags`, { type, value: 'checkout' });
    await call({ method: 'PUT', path: `/api/admin/features/${feature}/tags`, token, body: { addedTags: [{ type, value: 'search' }], removedTags: [{ type, value: 'checkout' }] } });

    const ofType = await get(`/api/admin/tags/${type}`);
    const all = await get('/api/admin/tags');

    expect(created.status).toBe(201);
    expect(created.body).toEqual({ version: 1, tag: { type, value: 'payments' } });
    expect(created.headers.location).toBe(`tags/${type}/payments`);
    expect(ofType.body).toEqual({ version: 1, tags: ['checkout', 'payments', 'search'].map((value) => ({ type, value })) });
    expect(all.body.tags).toEqual(expect.arrayContaining(ofType.body.tags));
  });

  it('answers 409 for a tag that exists, 400 naming the field for a bad one', async () => {
    const value = unique('v');
    await post('/api/admin/tags', { type: 'simple', value });

    const again = await post('/api/admin/tags', { type: 'simple', value });
    const short = await post('/api/admin/tags', { type: 'simple', value: 'x' });
    const unknownType = await post('/api/admin/tags', { type: unique('notype'), value: 'abc' });

    expect(again.status).toBe(409);
    expect(again.body.name).toBe('NameExistsError');
    expect(short.status).toBe(400);
    expect(short.body.message).toContain('value');
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.message).toMatch(/^type/);
  });

  it('gains nothing from a refused tagging', async () => {
    const value = unique('never');

    const res = await post(`/api/admin/features/${unique('missing')}/tags`, { type: 'simple', value });
    const inUse = await get('/api/admin/tags/simple');

    expect(res.status).toBe(404);
    expect(inUse.body.tags).not.toContainEqual({ type: 'simple', value });
  });

  it('leaves out the tags of a deleted type', async () => {
    const type = unique('gone');
    await post('/api/admin/tag-types', { name: type });
    await post('/api/admin/tags', { type, value: 'kept' });
    await call({ method: 'DELETE', path: `/api/admin/tag-types/${type}`, token });

    const ofType = await get(`/api/admin/tags/${type}`);
    const all = await get('/api/admin/tags');

    expect(ofType.body.tags).toEqual([]);
    expect(all.body.tags.filter((tag: { type: string }) => tag.type === type)).toEqual([]);
  });

  it('lists no tags for a type that has none', async () => {
    const res = await get(`/api/admin/tags/${unique('none')}`);

    expect(res.body).toEqual({ version: 1, tags: [] });
  });
});

describe('GET /api/admin/client-metrics/features/{featureName}', () => {
  // The reads name "this hour" from the services' clock; the test names its hours from the same
  // clock, stopped at the last second of an hour, so an hour that ends mid-test changes nothing.
  const HOUR_MS = 3_600_000;
  const now = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 1_000);
  const usage = apiClient(testServices({}, { now: () => now }));
  const get = (path: string) => usage({ method: 'GET', path, token });
  const hour = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR_MS).toISOString().slice(0, 13);

  it("answers this hour's counts by environment and the applications seen in the hours kept", async () => {
    const feature = await steps.createFeature();
    await services.metrics.addHourlyCounts([
      { hour: hour(0), feature, environment: 'production', yes: 7, no: 3, apps: ['web'], variants: { blue: 7 } },
      { hour: hour(0), feature, environment: 'development', yes: 1, no: 0, apps: ['web'] },
      { hour: hour(5), feature, environment: 'production', yes: 2, no: 2, apps: ['api'] },
    ]);

    const summary = await get(`/api/admin/client-metrics/features/${feature}`);
    const raw = await get(`/api/admin/client-metrics/features/${feature}/raw?hoursBack=6`);
    const lastHour = await get(`/api/admin/client-metrics/features/${feature}/raw?hoursBack=1`);

    expect(summary.status).toBe(200);
    expect(summary.body).toEqual({
      version: 1, maturity: 'stable', featureName: feature, seenApplications: ['api', 'web'],
      lastHourUsage: [
        { environment: 'development', timestamp: `${hour(0)}:00:00.000Z`, yes: 1, no: 0 },
        { environment: 'production', timestamp: `${hour(0)}:00:00.000Z`, yes: 7, no: 3 },
      ],
    });
    expect(raw.body.data.map((d: { environment: string; yes: number }) => [d.environment, d.yes])).toEqual([
      ['production', 2], ['development', 1], ['production', 7],
    ]);
    expect(raw.body.data[2]).toMatchObject({ featureName: feature, variants: { blue: 7 } });
    expect(lastHour.body.data).toHaveLength(2);
  });

  it('answers empty lists for a feature no SDK reported, 404 for one that does not exist', async () => {
    const feature = await steps.createFeature();

    const quiet = await get(`/api/admin/client-metrics/features/${feature}`);
    const missing = await get(`/api/admin/client-metrics/features/${unique('missing')}`);

    expect(quiet.body).toMatchObject({ lastHourUsage: [], seenApplications: [] });
    expect(missing.status).toBe(404);
  });

  it('refuses an hoursBack that is not a whole number with 400 naming it, and reads a span past the hours kept as 24', async () => {
    const feature = await steps.createFeature();
    await services.metrics.addHourlyCounts([{ hour: hour(30), feature, environment: 'production', yes: 1, no: 0 }]);

    const bad = await get(`/api/admin/client-metrics/features/${feature}/raw?hoursBack=two`);
    const long = await get(`/api/admin/client-metrics/features/${feature}/raw?hoursBack=2160`);
    const kept = await get(`/api/admin/client-metrics/features/${feature}/raw?hoursBack=48`);

    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('hoursBack');
    expect(long.body.data).toEqual([]);
    expect(kept.body.data).toHaveLength(1);
  });
});

describe('what these reads cost', () => {
  it("send the same requests whatever other projects hold: one project's reads touch its own items (ADR 17)", async () => {
    // A table of its own: reads of the admin read model also read what other test files changed meanwhile.
    const instance = await freshInstanceServices();
    const own = apiClient(instance);
    const ownToken = await adminToken(instance);
    const steps = featureSteps(own, ownToken);
    const projects = projectSteps(own, ownToken);
    /** DynamoDB requests one call sends, after a first call has warmed the caches it may use. */
    const requestsOf = async (path: string) => {
      await own({ method: 'GET', path, token: ownToken });
      const before = instance.dynamoRequests.snapshot();
      const res = await own({ method: 'GET', path, token: ownToken });
      expect(res.status).toBe(200);
      return countsSince(before, instance.dynamoRequests.snapshot()).byOperation;
    };
    const project = await projects.createProject();
    const feature = await steps.createFeature(project);
    await steps.createFeature(project);
    const paths = [
      `/api/admin/projects/${project}/overview`,
      `/api/admin/environments/project/${project}`,
      `/api/admin/projects/${project}/dependencies`,
      `${steps.base(project, feature)}/parents`,
      `${steps.base(project, feature)}/parent-variants`,
      `/api/admin/projects/${project}/context?include=root`,
      `/api/admin/client-metrics/features/${feature}`,
    ];
    // Every path once first: a later path may load what an earlier one reads (the admin read
    // model), and the comparison is about other projects' items, not about a container warming.
    for (const path of paths) await own({ method: 'GET', path, token: ownToken });
    const before = [];
    for (const path of paths) before.push(await requestsOf(path));

    const elsewhere = await projects.createProject();
    for (let i = 0; i < 5; i++) await steps.createFeature(elsewhere);
    const after = [];
    for (const path of paths) after.push(await requestsOf(path));

    expect(after).toEqual(before);
    // The usage summary: one GetItem of the feature and one Query for each day the 48 hours kept
    // fall in, 2 or 3 by the hour of the day (usage-reads.test.ts pins the clock for both).
    expect(before[6]?.GetItem).toBe(1);
    expect([2, 3]).toContain(before[6]?.Query);
  });
});
