import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiResponse } from '../support/api.js';
import { isolatedServices, putFeature, sdkToken } from '../support/client.js';
import { projectSteps, strategyUsing } from '../support/projects.js';
import { adminToken, unique } from '../support/services.js';
import type { Services } from '../../local/app-services.js';
import type { ClientFeature, ClientSegment, DeltaEvent } from '../../lib/client/schemas.js';
import { countsSince } from '../../lib/store/request-counter.js';

let services: Services;
let call: ReturnType<typeof apiClient>;
let admin: string;
let client: string;

beforeAll(async () => {
  // Every poll reads the revision: the tests change data between polls and expect to see it.
  services = await isolatedServices({ REVISION_CHECK_INTERVAL_MS: '0' });
  call = apiClient(services);
  admin = await adminToken(services);
  client = await sdkToken(services);
});

/** What the Node SDK sends in delta mode. */
const SDK_HEADERS = { 'Unleash-Client-Spec': '5.2.0', 'Accept-Encoding': 'gzip' };

const delta = (query: string, token: string, etag?: string) =>
  call({ method: 'GET', path: `/api/client/delta${query}`, token, headers: { ...SDK_HEADERS, ...(etag ? { 'If-None-Match': etag } : {}) } });
const features = (query: string, token: string) =>
  call({ method: 'GET', path: `/api/client/features${query}`, token, headers: SDK_HEADERS });

/** An SDK's state, kept as unleash-client's repository keeps it (repository/index.js, applyFeatureResponse). */
interface SdkState {
  features: Map<string, ClientFeature>;
  segments: Map<number, ClientSegment>;
  etag: string | undefined;
}

function apply(state: SdkState, res: ApiResponse): SdkState {
  if (res.status === 304) return state;
  expect(res.status).toBe(200);
  const next: SdkState = { features: new Map(state.features), segments: new Map(state.segments), etag: res.headers.etag };
  for (const event of res.body.events as DeltaEvent[]) {
    if (event.type === 'hydration') {
      next.features = new Map(event.features.map((feature) => [feature.name, feature]));
      next.segments = new Map(event.segments.map((segment) => [segment.id, segment]));
    } else if (event.type === 'feature-updated') next.features.set(event.feature.name, event.feature);
    else if (event.type === 'feature-removed') next.features.delete(event.featureName);
    else if (event.type === 'segment-updated') next.segments.set(event.segment.id, event.segment);
    else next.segments.delete(event.segmentId);
  }
  return next;
}

/** The SDK's state equals what /api/client/features serves, and the ETags name the same revision. */
async function expectSameAsFeatures(state: SdkState, query: string, token: string): Promise<void> {
  const full = await features(query, token);
  expect(`"${full.body.meta.revisionId}"`).toBe(state.etag);
  expect([...state.features.values()].sort((a, b) => (a.name < b.name ? -1 : 1))).toEqual(full.body.features);
  expect([...state.segments.values()].sort((a, b) => (a.name < b.name ? -1 : 1))).toEqual(full.body.segments);
}

const typesOf = (res: ApiResponse) => (res.body.events as DeltaEvent[]).map((event) => event.type);

describe('GET /api/client/delta, Unleash’s delta protocol', () => {
  it('hydrates, then sends each change, removal and segment change since the SDK’s ETag, equal to /api/client/features every time', async () => {
    const prefix = unique('delta');
    const query = `?namePrefix=${prefix}`;
    const steps = projectSteps(call, admin);
    const segment = await steps.createSegment({ constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }] });
    const spare = await steps.createSegment();
    await putFeature(services, { name: `${prefix}-a`, environments: { development: { enabled: true, strategies: [strategyUsing([segment])], variants: [] } } });
    await putFeature(services, { name: `${prefix}-b` });
    await putFeature(services, { name: `${prefix}-c` });

    // No ETag: one hydration event at the current revision.
    const first = await delta(query, client);
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^"\d+"$/);
    expect(first.body.events).toEqual([
      expect.objectContaining({ type: 'hydration', eventId: Number(first.headers.etag?.slice(1, -1)), segments: [expect.objectContaining({ id: segment })] }),
    ]);
    let state = apply({ features: new Map(), segments: new Map(), etag: undefined }, first);
    expect([...state.features.keys()]).toEqual([`${prefix}-a`, `${prefix}-b`, `${prefix}-c`]);
    await expectSameAsFeatures(state, query, client);

    // Nothing changed: 304 with the same ETag.
    const unchanged = await delta(query, client, state.etag);
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.etag).toBe(state.etag);

    // A change: the one feature, whole.
    await putFeature(services, { name: `${prefix}-b`, description: 'changed' });
    const updated = await delta(query, client, state.etag);
    expect(updated.body.events).toEqual([
      { type: 'feature-updated', eventId: Number(updated.headers.etag?.slice(1, -1)), feature: expect.objectContaining({ name: `${prefix}-b`, description: 'changed' }) },
    ]);
    state = apply(state, updated);
    await expectSameAsFeatures(state, query, client);

    // Archived: a removal naming its project.
    await putFeature(services, { name: `${prefix}-c`, archived: true, archivedAt: new Date().toISOString() });
    const archived = await delta(query, client, state.etag);
    expect(archived.body.events).toEqual([expect.objectContaining({ type: 'feature-removed', featureName: `${prefix}-c`, project: 'default' })]);
    state = apply(state, archived);
    await expectSameAsFeatures(state, query, client);

    // A segment a served feature uses changed: that segment, and no feature.
    const edited = await call({
      method: 'PUT', path: `/api/admin/segments/${segment}`, token: admin,
      body: { name: `seg-${prefix}`, constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1', 'u2'] }] },
    });
    expect(edited.status).toBe(204);
    const segmentChanged = await delta(query, client, state.etag);
    expect(segmentChanged.body.events).toEqual([
      expect.objectContaining({ type: 'segment-updated', segment: expect.objectContaining({ id: segment, name: `seg-${prefix}` }) }),
    ]);
    state = apply(state, segmentChanged);
    await expectSameAsFeatures(state, query, client);

    // The feature stops using it, and it is deleted: the SDK drops it.
    await putFeature(services, { name: `${prefix}-a` });
    const released = await delta(query, client, state.etag);
    expect(typesOf(released)).toEqual(['feature-updated', 'segment-removed']);
    state = apply(state, released);
    await expectSameAsFeatures(state, query, client);
    expect((await call({ method: 'DELETE', path: `/api/admin/segments/${segment}`, token: admin })).status).toBe(204);
    expect((await call({ method: 'DELETE', path: `/api/admin/segments/${spare}`, token: admin })).status).toBe(204);
    const deleted = await delta(query, client, state.etag);
    expect(deleted.body.events).toEqual([
      expect.objectContaining({ type: 'segment-removed', segmentId: segment }),
      expect.objectContaining({ type: 'segment-removed', segmentId: spare }),
    ]);
    state = apply(state, deleted);
    await expectSameAsFeatures(state, query, client);
  });

  it('sends a segment before the first feature that uses it', async () => {
    const prefix = unique('delta-newseg');
    const query = `?namePrefix=${prefix}`;
    await putFeature(services, { name: `${prefix}-a` });
    let state = apply({ features: new Map(), segments: new Map(), etag: undefined }, await delta(query, client));
    const segment = await projectSteps(call, admin).createSegment();

    await putFeature(services, { name: `${prefix}-a`, environments: { development: { enabled: true, strategies: [strategyUsing([segment])], variants: [] } } });
    const res = await delta(query, client, state.etag);

    expect(typesOf(res)).toEqual(['segment-updated', 'feature-updated']);
    state = apply(state, res);
    await expectSameAsFeatures(state, query, client);
  });

  it('removes a feature that leaves the SDK’s filter (a tag taken off)', async () => {
    const prefix = unique('delta-tag');
    const query = `?namePrefix=${prefix}&tag=simple:beta`;
    await putFeature(services, { name: `${prefix}-a`, tags: [{ type: 'simple', value: 'beta' }] });
    let state = apply({ features: new Map(), segments: new Map(), etag: undefined }, await delta(query, client));
    expect([...state.features.keys()]).toEqual([`${prefix}-a`]);

    await putFeature(services, { name: `${prefix}-a`, tags: [] });
    const res = await delta(query, client, state.etag);

    expect(res.body.events).toEqual([expect.objectContaining({ type: 'feature-removed', featureName: `${prefix}-a` })]);
    state = apply(state, res);
    await expectSameAsFeatures(state, query, client);
  });

  it('hydrates for a revision the table never held, a features ETag, or a weak one', async () => {
    for (const etag of ['"999999999999"', '"abcdef12:3"', 'W/"3"', 'nonsense']) {
      const res = await delta('', client, etag);

      expect(res.status).toBe(200);
      expect(typesOf(res)).toEqual(['hydration']);
    }
  });

  it('answers no events and the new ETag when only features outside the scope changed', async () => {
    const prefix = unique('delta-quiet');
    await putFeature(services, { name: `${prefix}-mine` });
    const first = await delta(`?namePrefix=${prefix}-mine`, client);

    await putFeature(services, { name: `${prefix}-other` });
    const res = await delta(`?namePrefix=${prefix}-mine`, client, first.headers.etag);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ events: [] });
    expect(Number(res.headers.etag?.slice(1, -1))).toBeGreaterThan(Number(first.headers.etag?.slice(1, -1)));
  });

  it('serves a project-scoped token its project only, and never names another project’s feature', async () => {
    const prefix = unique('delta-scope');
    const other = await projectSteps(call, admin).createProject();
    await putFeature(services, { name: `${prefix}-mine` });
    await putFeature(services, { name: `${prefix}-theirs`, project: other });
    const scoped = await sdkToken(services, { projects: ['default'] });
    const query = `?namePrefix=${prefix}&project=${other}`;
    let state = apply({ features: new Map(), segments: new Map(), etag: undefined }, await delta(query, scoped));
    expect([...state.features.keys()]).toEqual([`${prefix}-mine`]);

    await putFeature(services, { name: `${prefix}-theirs`, project: other, archived: true, archivedAt: new Date().toISOString() });
    await putFeature(services, { name: `${prefix}-theirs-too`, project: other });
    await putFeature(services, { name: `${prefix}-mine`, archived: true, archivedAt: new Date().toISOString() });
    const res = await delta(query, scoped, state.etag);

    expect(res.body.events).toEqual([expect.objectContaining({ type: 'feature-removed', featureName: `${prefix}-mine`, project: 'default' })]);
    expect(res.text).not.toContain('theirs');
    state = apply(state, res);
    await expectSameAsFeatures(state, query, scoped);
  });

  it('inlines segment constraints for SDKs before client spec 4.2.0, as /api/client/features does', async () => {
    const prefix = unique('delta-inline');
    const segment = await projectSteps(call, admin).createSegment();
    await putFeature(services, { name: `${prefix}-a`, environments: { development: { enabled: true, strategies: [strategyUsing([segment])], variants: [] } } });

    const res = await call({ method: 'GET', path: `/api/client/delta?namePrefix=${prefix}`, token: client, headers: { 'Unleash-Client-Spec': '4.1.0' } });

    expect(res.body.events).toEqual([expect.objectContaining({ type: 'hydration', segments: [] })]);
    expect(res.body.events[0].features[0].strategies[0]).not.toHaveProperty('segments');
    expect(res.body.events[0].features[0].strategies[0].constraints).toEqual([expect.objectContaining({ contextName: 'userId' })]);
  });

  it('asks for a token with 401', async () => {
    const anonymous = await call({ method: 'GET', path: '/api/client/delta' });

    expect(anonymous.status).toBe(401);
    expect(anonymous.body.name).toBe('AuthenticationRequired');
    expect(anonymous.body.message).toContain('Authorization header');
    expect(anonymous.body.events).toBeUndefined();
  });
});

describe('the DynamoDB work of a delta poll', () => {
  /** DynamoDB requests, by operation, that `work` sends through these services. */
  async function requestsOf(work: () => Promise<unknown>) {
    const before = services.dynamoRequests.snapshot();
    await work();
    return countsSince(before, services.dynamoRequests.snapshot());
  }

  it('is the revision Query alone for a current SDK, and what a features poll reads after a change', async () => {
    const prefix = unique('delta-cost');
    await putFeature(services, { name: `${prefix}-a` });
    const first = await delta(`?namePrefix=${prefix}`, client);

    const current = await requestsOf(() => delta(`?namePrefix=${prefix}`, client, first.headers.etag));
    await putFeature(services, { name: `${prefix}-a`, description: 'changed' });
    const changed = await requestsOf(() => delta(`?namePrefix=${prefix}`, client, first.headers.etag));
    const again = await requestsOf(() => delta(`?namePrefix=${prefix}`, client, first.headers.etag));
    const polled = await features(`?namePrefix=${prefix}`, client);
    await putFeature(services, { name: `${prefix}-a`, description: 'changed again' });
    const featuresPoll = await requestsOf(() => call({
      method: 'GET', path: `/api/client/features?namePrefix=${prefix}`, token: client, headers: { ...SDK_HEADERS, 'If-None-Match': polled.headers.etag as string },
    }));

    expect(current).toEqual({ total: 1, byOperation: { Query: 1 } });
    // The revision, the change log's entries since, and the one feature named there, as for E17.
    expect(changed).toEqual(featuresPoll);
    expect(changed.byOperation.BatchGetItem).toBe(1);
    expect(again).toEqual(current);
  });
});

describe('GET /api/client/streaming', () => {
  it('answers 404 NotFoundError in the Error shape, on which SDKs poll instead at once', async () => {
    const res = await call({ method: 'GET', path: '/api/client/streaming', token: client, headers: { Accept: 'text/event-stream' } });

    expect(res.status).toBe(404);
    expect(res.body).toEqual({ id: expect.any(String), name: 'NotFoundError', message: expect.stringContaining('poll') });
  });
});
