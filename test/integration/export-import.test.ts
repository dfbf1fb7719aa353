import { describe, expect, it } from 'vitest';
import { adminSession, apiClient, type ApiResponse } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { adminToken, freshInstanceServices, unique } from '../support/services.js';

const { call, token } = adminSession();
const steps = featureSteps(call, token);

const exportOf = (body: Record<string, unknown>, caller = call, auth = token) =>
  caller({ method: 'POST', path: '/api/admin/features-batch/export', token: auth, body });

/** A project with a parent and a child, strategies with a segment and constraints, variants and tags. */
async function richProject() {
  const project = await steps.createProject();
  const field = unique('tenant');
  await call({ method: 'POST', path: '/api/admin/context', token, body: { name: field, description: 'Tenant', stickiness: true } });
  const segmentName = unique('beta');
  const segment = await call({ method: 'POST', path: '/api/admin/segments', token, body: { name: segmentName, constraints: [] } });
  const tagType = unique('team');
  await call({ method: 'POST', path: '/api/admin/tag-types', token, body: { name: tagType } });
  const parent = await steps.createFeature(project, unique('parent'), { description: 'the parent', type: 'kill-switch' });
  const child = await steps.createFeature(project, unique('child'));
  await steps.addStrategy(project, parent, 'development', {
    name: 'flexibleRollout', parameters: { rollout: '40', stickiness: field, groupId: parent },
    constraints: [{ contextName: field, operator: 'IN', values: ['acme'] }], segments: [segment.body.id],
    variants: [{ name: 'x', weight: 0, weightType: 'variable', stickiness: field }],
  });
  await steps.turn(project, parent, 'development', 'on');
  await steps.putVariants(project, child, 'development', [{ name: 'blue', weightType: 'variable', weight: 0, stickiness: 'default', overrides: [{ contextName: 'userId', values: ['u1'] }] }]);
  await call({ method: 'POST', path: `/api/admin/features/${child}/tags`, token, body: { type: tagType, value: 'payments' } });
  await call({ method: 'POST', path: `${steps.base(project, child)}/dependencies`, token, body: { feature: parent } });
  return { project, field, segmentName, tagType, parent, child };
}

describe('E3 export', () => {
  it('exports a project with the strategies of one environment and what they use', async () => {
    const { project, field, segmentName, tagType, parent, child } = await richProject();

    const res = await exportOf({ environment: 'development', project });

    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.features.map((f: { name: string }) => f.name)).toEqual([child, parent].sort());
    expect(body.features.find((f: { name: string }) => f.name === parent)).toEqual({
      name: parent, description: 'the parent', type: 'kill-switch', project, stale: false, impressionData: false, archived: false,
    });
    expect(body.featureStrategies).toHaveLength(1);
    expect(body.featureStrategies[0]).toMatchObject({ featureName: parent, name: 'flexibleRollout', parameters: { rollout: '40' } });
    expect(body.featureEnvironments.find((e: { featureName: string }) => e.featureName === parent)).toMatchObject({ enabled: true, environment: 'development' });
    // The child's variant override names userId, so it travels too.
    expect(body.contextFields.map((f: { name: string }) => f.name).sort()).toEqual([field, 'userId'].sort());
    expect(body.segments.map((s: { name: string }) => s.name)).toEqual([segmentName]);
    expect(body.tagTypes.map((t: { name: string }) => t.name)).toEqual([tagType]);
    expect(body.featureTags).toEqual([{ featureName: child, tagType, tagValue: 'payments' }]);
    expect(body.dependencies).toEqual([{ feature: child, dependencies: [{ feature: parent, enabled: true, variants: [] }] }]);
  });

  it('selects by names (an empty list is every active feature) and by tag value', async () => {
    const { parent, child } = await richProject();

    const byName = await exportOf({ environment: 'production', features: [parent] });
    const all = await exportOf({ environment: 'production', features: [] });
    const byTag = await exportOf({ environment: 'production', tag: 'payments' });

    expect(byName.body.features.map((f: { name: string }) => f.name)).toEqual([parent]);
    expect(byName.body.featureStrategies).toEqual([]);
    expect(all.body.features.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining([parent, child]));
    expect(byTag.body.features.map((f: { name: string }) => f.name)).toContain(child);
  });

  it('answers an attachment with a dated file name when downloadFile is true, and 404 for an unknown environment', async () => {
    const download = await exportOf({ environment: 'development', features: [], downloadFile: true });
    const unknown = await exportOf({ environment: unique('env'), features: [] });

    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="export-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(unknown.status).toBe(404);
    expect(unknown.body.name).toBe('NotFoundError');
  });
});

describe('import', () => {
  it('round-trips: export a project, import it into an empty instance, export again — equal but for ids and project', async () => {
    const { project, segmentName } = await richProject();
    const exported = (await exportOf({ environment: 'development', project })).body;
    const other = await freshInstanceServices();
    const otherCall = apiClient(other);
    const otherToken = await adminToken(other);
    await otherCall({ method: 'POST', path: '/api/admin/segments', token: otherToken, body: { name: segmentName, constraints: [] } });

    const imported = await otherCall({ method: 'POST', path: '/api/admin/features-batch/import', token: otherToken, body: { project: 'default', environment: 'development', data: exported } });
    const again = (await exportOf({ environment: 'development', project: 'default' }, otherCall, otherToken)).body;

    expect(imported.status, imported.text).toBe(200);
    expect(normalise(again)).toEqual(normalise(exported));
  });

  it('changes nothing when the same import runs twice', async () => {
    const { project, segmentName } = await richProject();
    const exported = (await exportOf({ environment: 'development', project })).body;
    const other = await freshInstanceServices();
    const otherCall = apiClient(other);
    const otherToken = await adminToken(other);
    await otherCall({ method: 'POST', path: '/api/admin/segments', token: otherToken, body: { name: segmentName, constraints: [] } });
    const importIt = () => otherCall({ method: 'POST', path: '/api/admin/features-batch/import', token: otherToken, body: { project: 'default', environment: 'development', data: exported } });
    await importIt();
    const revision = await other.revisions.current();
    const before = await other.featureStore.listAll();

    const second = await importIt();

    expect(second.status).toBe(200);
    expect(await other.revisions.current()).toBe(revision);
    expect(await other.featureStore.listAll()).toEqual(before);
  });

  it('refuses with 400 listing every problem, and writes nothing', async () => {
    const project = await steps.createProject();
    const taken = await steps.createFeature('default');
    const fresh = unique('fresh');
    const data = {
      features: [{ name: taken, type: 'release' }, { name: fresh, type: 'release' }],
      featureStrategies: [
        { name: unique('no-such-type'), featureName: fresh, constraints: [{ contextName: unique('nofield'), operator: 'IN', values: ['a'] }], segments: [7] },
      ],
      featureEnvironments: [{ featureName: fresh, enabled: true, variants: [] }],
      segments: [{ id: 7, name: unique('missing-segment') }],
      featureTags: [{ featureName: fresh, tagType: unique('tt'), tagValue: 'v' }],
      tagTypes: [],
      dependencies: [{ feature: fresh, dependencies: [{ feature: unique('ghost'), enabled: true }] }],
      contextFields: [],
    };

    const res = await call({ method: 'POST', path: '/api/admin/features-batch/import', token, body: { project, environment: 'development', data } });
    const validated = await call({ method: 'POST', path: '/api/admin/features-batch/validate', token, body: { project, environment: 'development', data } });

    expect(res.status).toBe(400);
    for (const needle of ['other projects', 'strategy types', 'context fields', 'segments', 'tag types', 'parents']) {
      expect(res.body.message).toContain(needle);
    }
    expect(validated.body.errors.length).toBeGreaterThanOrEqual(6);
    expect((await steps.getFeature(project, fresh)).status).toBe(404);
  });

  it('creates missing tag types and context fields, and updates existing features in place', async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature(project, unique('existing'), { description: 'old' });
    const field = unique('plan');
    const tagType = unique('squad');
    const data = {
      features: [{ name, description: 'new', type: 'experiment' }],
      featureStrategies: [{ name: 'default', featureName: name, constraints: [{ contextName: field, operator: 'IN', values: ['pro'] }] }],
      featureEnvironments: [{ featureName: name, enabled: true }],
      contextFields: [{ name: field, stickiness: false, legalValues: [] }],
      featureTags: [{ featureName: name, tagType, tagValue: 'core' }],
      tagTypes: [{ name: tagType }],
    };

    const res = await call({ method: 'POST', path: '/api/admin/features-batch/import', token, body: { project, environment: 'development', data } });
    const feature = await steps.getFeature(project, name);

    expect(res.status, res.text).toBe(200);
    expect(feature.body).toMatchObject({ description: 'new', type: 'experiment', tags: [{ type: tagType, value: 'core' }] });
    const development = feature.body.environments.find((e: { name: string }) => e.name === 'development');
    expect(development).toMatchObject({ enabled: true });
    expect(development.strategies.map((s: { name: string }) => s.name)).toEqual(['default']);
  });
});

/** The parts of an export that must survive a round trip: ids and the project name aside. */
function normalise(result: ApiResponse['body']) {
  return {
    ...result,
    features: result.features.map(({ project: _p, ...rest }: Record<string, unknown>) => rest),
    featureStrategies: result.featureStrategies.map(({ id: _id, segments, ...rest }: { id: string; segments: number[] }) => ({ ...rest, segments: segments.length })),
    segments: result.segments.map(({ name }: { name: string }) => name),
    contextFields: result.contextFields.map(({ sortOrder: _s, ...rest }: Record<string, unknown>) => rest),
  };
}
