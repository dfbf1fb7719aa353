import { beforeAll, describe, expect, it } from 'vitest';
import { ClientMetricsService } from '../../lib/client/metrics-service.js';
import { directMetricsQueue, MetricsWriter } from '../../lib/client/metrics-stages.js';
import type { Feature } from '../../lib/features/model.js';
import { SDK_REPORT_LIMITS } from '../../lib/limits.js';
import type { Services } from '../../local/app-services.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { apiClient } from '../support/api.js';
import { isolatedServices, putFeature, rollout, sdkToken } from '../support/client.js';
import { featureSteps } from '../support/features.js';
import { captureLogs } from '../support/logs.js';
import { adminToken, unique } from '../support/services.js';
import { seedFeatures as storeFeatures } from '../support/seed-features.js';

/**
 * Issue 11, item 2: an SDK token records metrics and registrations only within its own scope,
 * and one report's work is bounded whatever it holds.
 */

let services: Services;
let call: ReturnType<typeof apiClient>;
let admin: string;
let steps: ReturnType<typeof featureSteps>;

beforeAll(async () => {
  services = await isolatedServices();
  call = apiClient(services);
  admin = await adminToken(services);
  steps = featureSteps(call, admin);
});

const report = (toggles: Record<string, { yes: number; no: number }>, extra: Record<string, unknown> = {}) => ({
  appName: 'scope-app', instanceId: 'instance-1',
  bucket: { start: new Date(Date.now() - 1000).toISOString(), stop: new Date().toISOString(), toggles },
  ...extra,
});

const postMetrics = (token: string, body: unknown) => call({ method: 'POST', path: '/api/client/metrics', token, body });

const today = () => new Date().toISOString().slice(0, 10);

/** What the table holds about a feature's usage: its last-seen times and today's counters. */
async function usageOf(feature: string) {
  const counts = (await services.metrics.hourlyCounts(today())).filter((count) => count.feature === feature);
  return { seen: await services.lastSeen.forFeature(feature), counts };
}

/** DynamoDB requests, by operation, that `work` sends through these services. */
async function requestsOf(work: () => Promise<unknown>) {
  const before = services.dynamoRequests.snapshot();
  await work();
  return countsSince(before, services.dynamoRequests.snapshot());
}

/** Stores features straight through the store port, many per transaction. */
async function seedFeatures(project: string, count: number): Promise<string[]> {
  const prefix = unique('seeded');
  const features = Array.from({ length: count }, (_, index): Feature => ({
    name: `${prefix}-${index}`, project, type: 'release', description: null,
    impressionData: false, stale: false, archived: false, archivedAt: null, createdAt: new Date().toISOString(),
    environments: { development: { enabled: true, strategies: [rollout()], variants: [] } },
    tags: [], dependencies: [], children: [], version: 1,
  }));
  await storeFeatures(services.featureStore, features);
  return features.map((feature) => feature.name);
}

describe('POST /api/client/metrics within the token’s scope', () => {
  it('leaves another project’s feature unseen and uncounted when a project-scoped token reports it', async () => {
    const [mine, theirs] = [await steps.createProject(), await steps.createProject()];
    const own = await putFeature(services, { name: unique('own'), project: mine });
    const foreign = await putFeature(services, { name: unique('foreign'), project: theirs });
    const token = await sdkToken(services, { projects: [mine] });

    const res = await postMetrics(token, report({ [own.name]: { yes: 1, no: 0 }, [foreign.name]: { yes: 5, no: 5 } }));

    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    expect(await usageOf(foreign.name)).toEqual({ seen: {}, counts: [] });
    expect(Object.keys((await usageOf(own.name)).seen)).toEqual(['development']);
  });

  it('lets a token on every project, and an admin token, report for any project', async () => {
    const project = await steps.createProject();
    const feature = await putFeature(services, { name: unique('anywhere'), project });
    const everyProject = await sdkToken(services, { projects: ['*'] });

    await postMetrics(everyProject, report({ [feature.name]: { yes: 1, no: 0 } }));
    await postMetrics(admin, report({ [feature.name]: { yes: 1, no: 0 } }, { environment: 'production' }));

    expect(Object.keys((await usageOf(feature.name)).seen).sort()).toEqual(['development', 'production']);
  });

  it('writes nothing for names that are no feature or an archived one, and logs how many it ignored', async () => {
    const archived = await putFeature(services, { name: unique('archived'), archived: true, archivedAt: new Date().toISOString() });
    const invented = Array.from({ length: 50 }, () => unique('invented'));
    const token = await sdkToken(services);
    await postMetrics(token, report({})); // the token is verified and cached before counting
    const logged = captureLogs();

    let res: Awaited<ReturnType<typeof postMetrics>> | undefined;
    const requests = await requestsOf(async () => {
      res = await postMetrics(token, report(Object.fromEntries([archived.name, ...invented].map((name) => [name, { yes: 1, no: 1 }]))));
    });

    logged.restore();
    expect(res?.status).toBe(202);
    expect(requests.byOperation.UpdateItem ?? 0).toBe(0);
    for (const name of [archived.name, ...invented.slice(0, 3)]) expect(await usageOf(name)).toEqual({ seen: {}, counts: [] });
    expect(logged.text()).toMatch(/"ignored":51\b/);
  });
});

describe('POST /api/client/metrics bounds', () => {
  it(`refuses a report of more than ${SDK_REPORT_LIMITS.toggles} toggles with 400 and writes nothing from it`, async () => {
    const feature = await putFeature(services, { name: unique('over-cap') });
    const names = [feature.name, ...Array.from({ length: SDK_REPORT_LIMITS.toggles }, (_, index) => `filler-${index}`)];
    const token = await sdkToken(services);

    const res = await postMetrics(token, report(Object.fromEntries(names.map((name) => [name, { yes: 1, no: 0 }]))));

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'ValidationError', message: expect.stringContaining('bucket.toggles') });
    expect(res.body.message).toContain(String(SDK_REPORT_LIMITS.toggles));
    expect(await usageOf(feature.name)).toEqual({ seen: {}, counts: [] });
  });

  it('answers a report at the cap with 202 and two writes per feature in scope, none for the rest', async () => {
    const [mine, theirs] = [await steps.createProject(), await steps.createProject()];
    const own = await seedFeatures(mine, 30);
    const foreign = await seedFeatures(theirs, 30);
    const token = await sdkToken(services, { projects: [mine] });
    await postMetrics(token, report({})); // the token is verified and cached before counting
    const invented = Array.from({ length: SDK_REPORT_LIMITS.toggles - own.length - foreign.length }, (_, index) => `invented-${index}`);
    const toggles = Object.fromEntries([...own, ...foreign, ...invented].map((name) => [name, { yes: 2, no: 1 }]));

    let status = 0;
    const requests = await requestsOf(async () => {
      status = (await postMetrics(token, report(toggles))).status;
    });

    expect(status).toBe(202);
    // A counter and a last-seen item per feature of its project; the revision check and at
    // most one read of the features (the snapshot every poll shares) besides.
    expect(requests.byOperation.UpdateItem).toBe(2 * own.length);
    expect(requests.total - 2 * own.length).toBeLessThanOrEqual(2);
    expect((await usageOf(own[0] as string)).counts).toEqual([expect.objectContaining({ yes: 2, no: 1 })]);
    expect(await usageOf(foreign[0] as string)).toEqual({ seen: {}, counts: [] });
  });
});

describe('a report’s writes in time', () => {
  it('starts no write once the report’s window is over, and logs what it dropped instead of failing', async () => {
    const feature = await putFeature(services, { name: unique('late') });
    const caller = { tokenName: 'late-sdk', type: 'client' as const, environment: 'development', projects: ['*'] };
    // A window already over when the writes would start, as on a store too slow for the report.
    // Without a queue a report is written in the request (ADR 15), within the same window.
    const late = new ClientMetricsService(directMetricsQueue(new MetricsWriter(services.metrics), 0), services.clientApplications, services.clientFeatures);
    const logged = captureLogs();

    const requests = await requestsOf(() => late.recordMetrics(caller, report({ [feature.name]: { yes: 1, no: 0 } })));

    logged.restore();
    expect(requests.byOperation.UpdateItem ?? 0).toBe(0);
    expect(await usageOf(feature.name)).toEqual({ seen: {}, counts: [] });
    expect(logged.text()).toMatch(/"dropped":2\b/);
  });
});

describe('POST /api/client/register within the token’s scope', () => {
  const registration = (appName: string, instanceId: string, strategies: string[]) => ({
    appName, instanceId, sdkVersion: 'unleash-node-sdk:6.12.1', strategies, started: new Date().toISOString(), interval: 1000,
  });

  it('keeps an application’s registration when a token of another project registers the same appName', async () => {
    const [mine, theirs] = [await steps.createProject(), await steps.createProject()];
    const [owner, intruder] = [await sdkToken(services, { projects: [mine] }), await sdkToken(services, { projects: [theirs] })];
    const appName = unique('shared-name');

    await call({ method: 'POST', path: '/api/client/register', token: owner, body: registration(appName, 'owner-1', ['default']) });
    const res = await call({
      method: 'POST', path: '/api/client/register', token: intruder, body: registration(appName, 'intruder-1', ['evil']),
    });

    expect(res.status).toBe(202);
    const scope = { environment: 'development', projects: [mine] };
    expect(await services.clientApplications.get(appName, scope)).toMatchObject({ instanceId: 'owner-1', strategies: ['default'] });
    expect(await services.clientApplications.get(appName, { environment: 'development', projects: [theirs] })).toMatchObject({
      instanceId: 'intruder-1',
    });
  });

  it(`stores at most ${SDK_REPORT_LIMITS.strategies} strategy names of at most 100 characters`, async () => {
    const token = await sdkToken(services);
    const [tooMany, tooLong] = [unique('many'), unique('long')];
    const many = Array.from({ length: SDK_REPORT_LIMITS.strategies + 1 }, (_, index) => `strategy-${index}`);

    const results = await Promise.all([
      call({ method: 'POST', path: '/api/client/register', token, body: registration(tooMany, 'i', many) }),
      call({ method: 'POST', path: '/api/client/register', token, body: registration(tooLong, 'i', ['x'.repeat(101)]) }),
    ]);

    expect(results.map((res) => res.status)).toEqual([202, 202]);
    const scope = { environment: 'development', projects: ['*'] };
    expect(await services.clientApplications.get(tooMany, scope)).toMatchObject({ appName: tooMany, strategies: [] });
    expect(await services.clientApplications.get(tooLong, scope)).toMatchObject({ appName: tooLong, strategies: [] });
  });
});
