import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Feature, FeatureEnvironment } from '../../lib/features/model.js';
import { formatSecret } from '../../lib/tokens/model.js';
import { adminSession } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { unique } from '../support/services.js';
import { seedFeatures } from '../support/seed-features.js';

const { services, call, token } = adminSession();
const steps = featureSteps(call, token);

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const on = (segments: number[] = []): FeatureEnvironment => ({
  enabled: true,
  variants: [],
  strategies: [{ id: randomUUID(), name: 'default', title: null, disabled: false, sortOrder: 0, constraints: [], parameters: {}, variants: [], segments }],
});

/** Features written as they are stored, so their creation times are the test's to choose. */
async function seed(project: string, specs: Array<Partial<Feature> & { name: string; createdAt: string }>) {
  const features: Feature[] = specs.map((spec) => ({
    project, type: 'release', description: null, impressionData: false, stale: false, archived: false, archivedAt: null,
    environments: {}, tags: [], dependencies: [], children: [], version: 1, ...spec,
  }));
  await seedFeatures(services.featureStore, features);
}

const search = (query: string, as = token) => call({ method: 'GET', path: `/api/admin/search/features?${query}`, token: as });
const names = (res: { body: { features: Array<{ name: string }> } }) => res.body.features.map((feature) => feature.name);

describe('GET /api/admin/search/features', () => {
  let project: string;
  let other: string;
  let segmentName: string;
  const n = (suffix: string) => `${project}-${suffix}`;

  beforeAll(async () => {
    project = await steps.createProject();
    other = await steps.createProject();
    segmentName = unique('seg');
    const segment = await call({ method: 'POST', path: '/api/admin/segments', token, body: { name: segmentName, constraints: [] } });
    expect(segment.status).toBe(201);
    await seed(project, [
      { name: n('alpha'), createdAt: daysAgo(100), type: 'release', description: 'Checkout Redesign', tags: [{ type: 'simple', value: 'web' }] },
      { name: n('bravo'), createdAt: daysAgo(3), type: 'kill-switch', stale: true, tags: [{ type: 'simple', value: 'web' }, { type: 'simple', value: 'ios' }] },
      { name: n('charlie'), createdAt: daysAgo(2), type: 'experiment', environments: { production: on([segment.body.id]) } },
      { name: n('delta'), createdAt: daysAgo(1), type: 'release', archived: true, archivedAt: daysAgo(0) },
    ]);
    await seed(other, [{ name: `${other}-echo`, createdAt: daysAgo(5), description: `mentions ${project}` }]);
  });

  it('answers the project\'s active features, oldest first, with the total and Unleash\'s fields', async () => {
    const res = await search(`project=IS:${project}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(names(res)).toEqual([n('alpha'), n('bravo'), n('charlie')]);
    const charlie = res.body.features[2];
    expect(charlie).toMatchObject({
      name: n('charlie'), project, type: 'experiment', stale: false, favorite: false, impressionData: false, archivedAt: null,
      dependencyType: null, lastSeenAt: null, segments: [segmentName], tags: [], createdBy: { id: 0 },
    });
    expect(charlie.environments.map((e: { name: string }) => e.name)).toEqual(['development', 'production']);
    expect(charlie.environments[1]).toEqual({
      name: 'production', enabled: true, type: 'production', sortOrder: expect.any(Number), variantCount: 0, lastSeenAt: null,
      hasStrategies: true, hasEnabledStrategies: true, changeRequestIds: [],
    });
  });

  it('lists archived features only with archived=IS:true, as the archive page asks', async () => {
    const res = await search(`project=IS:${project}&archived=IS:true`);
    expect(names(res)).toEqual([n('delta')]);
    expect(res.body.features[0].archivedAt).not.toBeNull();
  });

  it('finds a term in the name, the description or a tag, case-insensitively, any of several terms', async () => {
    expect(names(await search(`project=IS:${project}&query=REDESIGN`))).toEqual([n('alpha')]);
    expect(names(await search(`project=IS:${project}&query=ios`))).toEqual([n('bravo')]);
    expect(names(await search(`project=IS:${project}&query=charlie,bravo&sortBy=name`))).toEqual([n('bravo'), n('charlie')]);
    // Without a project filter the search spans every project.
    expect(names(await search(`query=${project}&sortBy=name`))).toEqual([`${other}-echo`, n('alpha'), n('bravo'), n('charlie')].sort());
  });

  it('filters by project, type, state, tag, segment and creation date with Unleash\'s operators', async () => {
    const within = `project=IS_ANY_OF:${project},${other}`;
    expect((await search(within)).body.total).toBe(4);
    expect(names(await search(`project=IS_NOT:${other}&query=${project}`))).toEqual([n('alpha'), n('bravo'), n('charlie')]);
    expect(names(await search(`project=IS:${project}&type=IS_ANY_OF:experiment,kill-switch`))).toEqual([n('bravo'), n('charlie')]);
    expect(names(await search(`project=IS:${project}&type=IS_NOT:release`))).toEqual([n('bravo'), n('charlie')]);
    expect(names(await search(`project=IS:${project}&state=IS:stale`))).toEqual([n('bravo')]);
    expect(names(await search(`project=IS:${project}&state=IS:active`))).toEqual([n('alpha'), n('charlie')]);
    // A release feature lives 40 days: alpha, at 100 days, is potentially stale.
    expect(names(await search(`project=IS:${project}&state=IS:potentially-stale`))).toEqual([n('alpha')]);
    expect(names(await search(`project=IS:${project}&tag=INCLUDE:simple:web`))).toEqual([n('alpha'), n('bravo')]);
    expect(names(await search(`project=IS:${project}&tag=INCLUDE_ALL_OF:simple:web,simple:ios`))).toEqual([n('bravo')]);
    expect(names(await search(`project=IS:${project}&tag=DO_NOT_INCLUDE:simple:web`))).toEqual([n('charlie')]);
    expect(names(await search(`project=IS:${project}&segment=INCLUDE:${segmentName}`))).toEqual([n('charlie')]);
    expect(names(await search(`project=IS:${project}&segment=EXCLUDE_IF_ANY_OF:${segmentName}`))).toEqual([n('alpha'), n('bravo')]);
    const tenDaysAgo = daysAgo(10).slice(0, 10);
    expect(names(await search(`project=IS:${project}&createdAt=IS_BEFORE:${tenDaysAgo}`))).toEqual([n('alpha')]);
    expect(names(await search(`project=IS:${project}&createdAt=IS_ON_OR_AFTER:${tenDaysAgo}`))).toEqual([n('bravo'), n('charlie')]);
    expect(names(await search(`project=IS:${project}&status=production:enabled`))).toEqual([n('charlie')]);
    // Nothing is anyone's favourite and no lifecycle stage is recorded.
    expect((await search(`project=IS:${project}&favorite=IS:true`)).body.total).toBe(0);
    expect((await search(`project=IS:${project}&lifecycle=IS:completed`)).body.total).toBe(0);
  });

  it('sorts by name, type and an environment\'s state in either order, ties oldest first', async () => {
    expect(names(await search(`project=IS:${project}&sortBy=name&sortOrder=desc`))).toEqual([n('charlie'), n('bravo'), n('alpha')]);
    expect(names(await search(`project=IS:${project}&sortBy=createdAt&sortOrder=desc`))).toEqual([n('charlie'), n('bravo'), n('alpha')]);
    expect(names(await search(`project=IS:${project}&sortBy=type`))).toEqual([n('charlie'), n('bravo'), n('alpha')]);
    expect(names(await search(`project=IS:${project}&sortBy=environment:production&sortOrder=desc`))).toEqual([n('charlie'), n('alpha'), n('bravo')]);
    expect(names(await search(`project=IS:${project}&sortBy=environment:production&sortOrder=asc`))).toEqual([n('alpha'), n('bravo'), n('charlie')]);
    expect(names(await search(`project=IS:${project}&sortBy=lastSeenAt`))).toEqual([n('alpha'), n('bravo'), n('charlie')]);
  });

  it('cuts pages with offset and limit; total counts every match; 50 by default', async () => {
    const first = await search(`project=IS:${project}&sortBy=name&limit=2`);
    expect(names(first)).toEqual([n('alpha'), n('bravo')]);
    expect(first.body.total).toBe(3);
    const second = await search(`project=IS:${project}&sortBy=name&limit=2&offset=2`);
    expect(names(second)).toEqual([n('charlie')]);
    expect(second.body.total).toBe(3);
    expect((await search(`project=IS:${project}&offset=10`)).body).toEqual({ features: [], total: 3 });
  });

  it('defaults to 50 features a page', async () => {
    const many = await steps.createProject();
    await seed(many, Array.from({ length: 60 }, (_, i) => ({ name: `${many}-${String(i).padStart(2, '0')}`, createdAt: daysAgo(60 - i) })));
    const res = await search(`project=IS:${many}`);
    expect(res.body.total).toBe(60);
    expect(res.body.features).toHaveLength(50);
    expect(names(await search(`project=IS:${many}&limit=100&offset=55`))).toEqual([55, 56, 57, 58, 59].map((i) => `${many}-${i}`));
  });

  it('ignores parameters it does not know, as the admin UI sends some (columns)', async () => {
    const res = await search(`project=IS:${project}&columns=name,createdAt&favoritesFirst=true`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
  });

  it.each([
    ['limit=0', 'limit'], ['limit=101', 'limit'], ['limit=ten', 'limit'], ['offset=-1', 'offset'], ['offset=1.5', 'offset'],
    ['sortOrder=up', 'sortOrder'], ['sortBy=colour', 'sortBy'], ['project=default', 'project'], ['project=IS:', 'project'],
    ['type=INCLUDE:release', 'type'], ['tag=INCLUDE:web', 'tag'], ['state=IS:sleepy', 'state'], ['segment=IS:x', 'segment'],
    ['createdAt=IS_BEFORE:2024-02-30', 'createdAt'], ['createdAt=AFTER:2024-01-01', 'createdAt'], ['archived=true', 'archived'],
    ['status=production:on', 'status'], ['lastSeenAt=IS_BEFORE:yesterday', 'lastSeenAt'],
  ])('answers %s with a 400 ValidationError naming %s', async (query, parameter) => {
    const res = await search(query);
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.message).toMatch(new RegExp(`^${parameter}: `));
  });

  it('answers an admin token only: 401 without one, 403 to an SDK token', async () => {
    expect((await call({ method: 'GET', path: '/api/admin/search/features' })).status).toBe(401);
    const client = formatSecret(['*'], 'development');
    await services.apiTokens.insertKnownSecret(client, { tokenName: unique('sdk'), type: 'client', environment: 'development', projects: ['*'] });
    const res = await search(`project=IS:${project}`, client);
    expect(res.status).toBe(403);
    expect(res.body.name).toBe('NoAccessError');
  });
});
