import { beforeAll, describe, expect, it } from 'vitest';
import { createComposition } from '../../lib/composition/composition.js';
import { edgePorts, edges } from '../../lib/composition/slices/edge.js';
import { BULK_REPORT_LIMITS, EDGE_VALIDATION, MAX_BULK_REGISTRATIONS } from '../../lib/edge/model.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { edgeSlice } from '../../lib/edge/slice.js';
import { EdgeUsage } from '../../lib/edge/service.js';
import type { EdgeInstanceReport } from '../../lib/edge/schemas.js';
import { ServiceUnavailable } from '../../lib/errors.js';
import { WrittenBeforeFailure } from '../../lib/request-deadline.js';
import type { Caller } from '../../lib/tokens/model.js';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { isolatedServices, putFeature, sdkToken } from '../support/client.js';
import { featureSteps } from '../support/features.js';
import { captureLogs } from '../support/logs.js';
import { adminToken, unique } from '../support/services.js';

/**
 * Issue 26, item 1: what Unleash Edge 20 calls upstream besides the SDK API. Bodies and headers
 * are Edge's own (unleash-edge 20.1.0: its http client, its MetricsBatch and EdgeInstanceData).
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

/** The headers Edge's http client sends on every upstream request (no Authorization on validate). */
const EDGE_HEADERS = {
  'user-agent': 'unleash-edge-20.1.0',
  'unleash-appname': 'unleash-edge',
  'unleash-instanceid': '01JQ5ZB6Y2M4V7X9A1C3E5G7H9',
  'unleash-connection-id': '01JQ5ZB6Y2M4V7X9A1C3E5G7HA',
  'unleash-client-spec': '5.2.2',
};

const validate = (tokens: unknown, api = call) =>
  api({ method: 'POST', path: '/edge/validate', body: { tokens }, headers: EDGE_HEADERS });

const bulk = (token: string | undefined, body: unknown) =>
  call({ method: 'POST', path: '/api/client/metrics/bulk', token, body, headers: EDGE_HEADERS });

const today = () => new Date().toISOString().slice(0, 10);

/** One count as Edge's MetricsBatch lists it (unleash-types ClientMetricsEnv, metadata flattened). */
const count = (featureName: string, environment: string, extra: Record<string, unknown> = {}) => ({
  featureName, appName: 'edge-fed-app', environment, timestamp: new Date(Date.now() - 1000).toISOString(),
  yes: 4, no: 1, variants: { blue: 4 }, sdkVersion: 'unleash-java-sdk:12.2.3', sdkType: 'backend',
  yggdrasilVersion: '0.18.1', platformName: null, platformVersion: null, ...extra,
});

/** One registration as Edge forwards it (unleash-types ClientApplication). */
const application = (appName: string, environment = 'development') => ({
  appName, connectVia: [{ appName: 'unleash-edge', instanceId: '01JQ5ZB6Y2M4V7X9A1C3E5G7H9' }], environment,
  projects: ['default'], instanceId: 'pod-1', connectionId: 'conn-1', interval: 15000,
  started: new Date().toISOString(), strategies: ['default', 'flexibleRollout'],
  sdkVersion: 'unleash-java-sdk:12.2.3', sdkType: 'backend', yggdrasilVersion: '0.18.1', platformName: 'OpenJDK', platformVersion: '17',
});

/** DynamoDB requests, by operation, that `work` sends through these services. */
async function requestsOf(work: () => Promise<unknown>) {
  const before = services.dynamoRequests.snapshot();
  await work();
  return countsSince(before, services.dynamoRequests.snapshot());
}

/** Operations that write to the table. */
const writesOf = (counts: { byOperation: Record<string, number> }) =>
  ['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem'].reduce((sum, operation) => sum + (counts.byOperation[operation] ?? 0), 0);

async function listedCount(prefix: string) {
  const res = await call({ method: 'GET', path: `/api/admin/metrics/applications?query=${prefix}&limit=1`, token: admin });
  expect(res.status, res.text).toBe(200);
  return res.body.total as number;
}

async function countsOf(feature: string) {
  return (await services.metrics.hourlyCounts(today())).filter((entry) => entry.feature === feature);
}

async function listedApplication(appName: string) {
  const res = await call({ method: 'GET', path: `/api/admin/metrics/applications?query=${appName}`, token: admin });
  expect(res.status, res.text).toBe(200);
  return (res.body.applications as Array<{ appName: string; sdkVersion?: string }>).find((listed) => listed.appName === appName);
}

describe('POST /edge/validate', () => {
  it('answers only the valid tokens, each with its lower-case type, environment and projects as a list, without an Authorization header', async () => {
    const project = await steps.createProject();
    const wildcard = await sdkToken(services);
    const scoped = await sdkToken(services, { projects: [project], environment: 'production' });
    const backend = await sdkToken(services, { type: 'backend' });
    const frontend = await sdkToken(services, { type: 'frontend', projects: [project] });
    const unknown = `*:development.${'0'.repeat(56)}`;

    const res = await validate([wildcard, unknown, scoped, backend, frontend, admin, 'not even a token']);

    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      tokens: [
        { token: wildcard, type: 'client', environment: 'development', projects: ['*'] },
        { token: scoped, type: 'client', environment: 'production', projects: [project] },
        { token: backend, type: 'backend', environment: 'development', projects: ['*'] },
        { token: frontend, type: 'frontend', environment: 'development', projects: [project] },
        { token: admin, type: 'admin', environment: '*', projects: ['*'] },
      ],
    });
  });

  it('answers an empty list when none is valid, and for an empty request', async () => {
    const none = await validate([`default:development.${unique('nobody')}`]);
    const empty = await validate([]);

    expect(none.status).toBe(200);
    expect(none.body).toEqual({ tokens: [] });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ tokens: [] });
  });

  it('no longer answers a token once it is deleted', async () => {
    const token = await sdkToken(services);
    const before = await validate([token]);

    const deleted = await call({ method: 'DELETE', path: `/api/admin/api-tokens/${encodeURIComponent(token)}`, token: admin });
    const after = await validate([token]);

    expect(before.body.tokens).toHaveLength(1);
    expect(deleted.status).toBe(200);
    expect(after.body).toEqual({ tokens: [] });
  });

  it(`refuses more than ${EDGE_VALIDATION.tokensPerRequest} tokens in one request with a 400 naming tokens, and a body without a list`, async () => {
    const tooMany = await validate(Array.from({ length: EDGE_VALIDATION.tokensPerRequest + 1 }, (_, index) => `default:development.x${index}`));
    const notAList = await validate('one-token');
    const noBody = await call({ method: 'POST', path: '/edge/validate', body: {} });

    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ name: 'ValidationError', message: expect.stringContaining('tokens') });
    expect(tooMany.body.message).toContain(String(EDGE_VALIDATION.tokensPerRequest));
    expect(notAList.status).toBe(400);
    expect(notAList.body.message).toContain('tokens');
    expect(noBody.status).toBe(400);
  });

  it('counts the tokens each address asks about in a minute, across containers, and answers 429 with Retry-After above the rate until the next minute', async () => {
    const valid = await sdkToken(services);
    let now = new Date('2031-03-04T05:06:40.000Z');
    const clock = () => now;
    // Two containers: each its own composition and caches, one table.
    const limited = () => apiClient({
      ...services,
      composition: createComposition(services.config, {
        store: services.composition.store, now: clock,
        replace: [[edges, (c) => edgeSlice(c, edgePorts(c), { validation: { tokensPerRequest: 10, tokensPerMinute: 5 } })]],
      }),
    });
    const [first, second] = [limited(), limited()];

    const three = await validate([valid, 'a', 'b'], first);
    const two = await validate([valid, 'c'], second);
    const over = await validate([valid], first);
    now = new Date('2031-03-04T05:07:00.000Z');
    const nextMinute = await validate([valid], second);

    expect([three.status, two.status]).toEqual([200, 200]);
    expect(two.body.tokens).toEqual([expect.objectContaining({ token: valid })]);
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBe('20');
    expect(over.body).toMatchObject({ name: 'RateLimitError', message: expect.stringContaining('at most 5') });
    expect(over.body.tokens).toBeUndefined();
    expect(nextMinute.status).toBe(200);
    expect(nextMinute.body.tokens).toEqual([expect.objectContaining({ token: valid })]);
  });
});

describe('POST /api/client/metrics/bulk', () => {
  it('keeps the counts of the token’s environment and projects only, as Unleash does, where /api/client/metrics’s are kept', async () => {
    const [mine, theirs] = [await steps.createProject(), await steps.createProject()];
    const own = await putFeature(services, { name: unique('bulk-own'), project: mine });
    const foreign = await putFeature(services, { name: unique('bulk-foreign'), project: theirs });
    const token = await sdkToken(services, { projects: [mine] });

    const res = await bulk(token, {
      applications: [],
      metrics: [count(own.name, 'development'), count(own.name, 'production', { yes: 100 }), count(foreign.name, 'development'), count('no-such-feature', 'development')],
    });

    expect(res.status, res.text).toBe(202);
    expect(res.text).toBe('');
    expect(await countsOf(own.name)).toEqual([expect.objectContaining({ environment: 'development', yes: 4, no: 1, variants: { blue: 4 } })]);
    expect(Object.keys(await services.lastSeen.forFeature(own.name))).toEqual(['development']);
    expect(await countsOf(foreign.name)).toEqual([]);
  });

  it('sums the counts of several applications and instances of one feature', async () => {
    const feature = await putFeature(services, { name: unique('bulk-sum') });
    const token = await sdkToken(services);

    await bulk(token, { applications: [], metrics: [count(feature.name, 'development'), count(feature.name, 'development', { appName: 'other-app', yes: 6, no: 0, variants: {} })] });

    expect(await countsOf(feature.name)).toEqual([expect.objectContaining({ yes: 10, no: 1 })]);
  });

  it('keeps each environment’s counts for an admin token', async () => {
    const feature = await putFeature(services, {
      name: unique('bulk-admin'),
      environments: { development: { enabled: true, strategies: [], variants: [] }, production: { enabled: true, strategies: [], variants: [] } },
    });

    await bulk(admin, { applications: [], metrics: [count(feature.name, 'development'), count(feature.name, 'production')] });

    expect((await countsOf(feature.name)).map((entry) => entry.environment).sort()).toEqual(['development', 'production']);
  });

  it('registers the forwarded applications, once per application, visible in the applications list', async () => {
    const appName = unique('edge-app');
    const token = await sdkToken(services);

    const res = await bulk(token, { applications: [application(appName), { ...application(appName), instanceId: 'pod-2' }], metrics: [] });

    expect(res.status).toBe(202);
    expect(await listedApplication(appName)).toMatchObject({ appName, sdkVersion: 'unleash-java-sdk:12.2.3' });
    expect(await services.clientApplications.get(appName)).toMatchObject({ environment: 'development', strategies: ['default', 'flexibleRollout'], interval: 15000 });
  });

  it(`registers at most ${MAX_BULK_REGISTRATIONS} distinct applications of a report of 1,000, in a bounded number of DynamoDB requests, drops the rest with one log line and still answers 202`, async () => {
    const prefix = unique('many-apps');
    const token = await sdkToken(services);
    const logged = captureLogs();

    let status = 0;
    const requests = await requestsOf(async () => {
      status = (await bulk(token, { applications: Array.from({ length: BULK_REPORT_LIMITS.applications }, (_, index) => application(`${prefix}-${index}`)), metrics: [] })).status;
    });

    logged.restore();
    expect(status).toBe(202);
    // A new application costs 4 requests (lib/client's register), and up to 3 more per race it loses
    // to another registration of the report on the scope's count, at most 3 attempts: 10 at most.
    // Unbounded, the report would have cost at least 4,000.
    expect(requests.total).toBeLessThanOrEqual(MAX_BULK_REGISTRATIONS * 10 + 5);
    expect(await listedCount(prefix)).toBe(MAX_BULK_REGISTRATIONS);
    expect(logged.text().split('the rest dropped').length - 1).toBe(1);
  });

  it('writes nothing for the registrations of a report repeated the same day, and writes again one whose SDK version changed', async () => {
    const [first, second] = [unique('repeat-app'), unique('repeat-app')];
    const token = await sdkToken(services);
    const report = { applications: [application(first), application(second), { ...application(first), instanceId: 'pod-2' }], metrics: [] };

    const written = await requestsOf(() => bulk(token, report));
    const repeated = await requestsOf(() => bulk(token, report));
    const upgraded = await requestsOf(() => bulk(token, { applications: [{ ...application(first), sdkVersion: 'unleash-java-sdk:12.3.0' }, application(second)], metrics: [] }));

    expect(writesOf(written)).toBeGreaterThanOrEqual(2);
    expect(writesOf(repeated)).toBe(0);
    expect(repeated.total).toBeLessThan(written.total);
    expect(writesOf(upgraded)).toBe(1);
    expect(await services.clientApplications.get(first)).toMatchObject({ sdkVersion: 'unleash-java-sdk:12.3.0' });
    expect(await services.clientApplications.get(second)).toMatchObject({ sdkVersion: 'unleash-java-sdk:12.2.3' });
  });

  it('keeps an application reported in two environments with an admin token once per environment', async () => {
    const appName = unique('two-env-app');

    const res = await bulk(admin, { applications: [application(appName, 'development'), { ...application(appName, 'production'), instanceId: 'pod-9' }], metrics: [] });

    expect(res.status, res.text).toBe(202);
    expect(await services.clientApplications.get(appName, { environment: 'development', projects: ['*'] })).toMatchObject({ environment: 'development', instanceId: 'pod-1' });
    expect(await services.clientApplications.get(appName, { environment: 'production', projects: ['*'] })).toMatchObject({ environment: 'production', instanceId: 'pod-9' });
  });

  it('accepts impact metrics and seen tokens, keeps neither, and says so in one log line each', async () => {
    const token = await sdkToken(services);
    const logged = captureLogs();

    const res = await bulk(token, {
      applications: [], metrics: [],
      impactMetrics: [{ name: 'checkout_total', help: 'Checkouts', type: 'counter', samples: [{ value: 3, labels: { appName: 'shop' } }] }],
      seenTokens: [token],
    });

    logged.restore();
    expect(res.status).toBe(202);
    expect(logged.text()).toContain('impact metrics are not kept; dropped');
    expect(logged.text()).toContain('seen tokens of a bulk report are not kept');
  });

  it('registers an application whose interval the store could not keep without it, rather than answering 400 after a write', async () => {
    // Found by the route fuzz: 5e-310 passed the schema, the registration's first write landed,
    // and the next one was refused by DynamoDB's number range, so a refused request had written.
    const token = await sdkToken(services);
    const appNames = [unique('edge-tiny-interval'), unique('edge-huge-interval'), unique('edge-fraction-interval')];
    const intervals = [5.17970768666933e-310, 1e300, 1.5];

    const res = await bulk(token, { applications: appNames.map((appName, index) => ({ ...application(appName), interval: intervals[index] })), metrics: [] });
    const direct = await call({ method: 'POST', path: '/api/client/register', token, body: { appName: unique('sdk-tiny-interval'), interval: 5e-310 } });

    expect(res.status).toBe(202);
    expect(direct.status).toBe(202);
    for (const appName of appNames) {
      const stored = await services.clientApplications.get(appName);
      expect(stored, appName).toMatchObject({ appName });
      expect(stored?.interval ?? null, appName).toBeNull();
    }
  });

  it('drops items it cannot read instead of refusing the batch, which Edge would lose whole', async () => {
    const feature = await putFeature(services, { name: unique('bulk-odd') });
    const token = await sdkToken(services);

    const res = await bulk(token, {
      applications: [{ noAppName: true }, 'text', null], metrics: [count(feature.name, 'development'), { yes: 1 }, 42], surprise: { nested: true },
    });
    const notAnObject = await call({ method: 'POST', path: '/api/client/metrics/bulk', token, rawBody: '[1,2]', headers: { 'content-type': 'application/json' } });

    expect(res.status).toBe(202);
    expect(await countsOf(feature.name)).toEqual([expect.objectContaining({ yes: 4 })]);
    expect(notAnObject.status).toBe(202);
  });

  it(`refuses more than ${BULK_REPORT_LIMITS.metrics} counts or ${BULK_REPORT_LIMITS.applications} registrations with a 400 naming the list, and writes nothing`, async () => {
    const feature = await putFeature(services, { name: unique('bulk-cap') });
    const token = await sdkToken(services);
    const appName = unique('over-cap-app');

    const counts = await bulk(token, { applications: [], metrics: Array.from({ length: BULK_REPORT_LIMITS.metrics + 1 }, () => count(feature.name, 'development')) });
    const registrations = await bulk(token, { applications: Array.from({ length: BULK_REPORT_LIMITS.applications + 1 }, () => application(appName)), metrics: [] });

    expect(counts.status).toBe(400);
    expect(counts.body).toMatchObject({ name: 'ValidationError', message: expect.stringContaining('metrics') });
    expect(registrations.status).toBe(400);
    expect(registrations.body.message).toContain('applications');
    expect(await countsOf(feature.name)).toEqual([]);
    expect(await services.clientApplications.get(appName)).toBeUndefined();
  });

  it('refuses a body above the batch limit with 413', async () => {
    const token = await sdkToken(services);

    const res = await call({ method: 'POST', path: '/api/client/metrics/bulk', token, rawBody: JSON.stringify({ applications: [], metrics: [], pad: 'x'.repeat(600 * 1024) }) });

    expect(res.status).toBe(413);
  });

  it('asks for a client token: 401 without one, 403 with a frontend token', async () => {
    const frontend = await sdkToken(services, { type: 'frontend' });

    const anonymous = await bulk(undefined, { applications: [], metrics: [] });
    const fromBrowser = await bulk(frontend, { applications: [], metrics: [] });

    expect(anonymous.status).toBe(401);
    expect(fromBrowser.status).toBe(403);
  });
});

describe('POST /api/client/metrics/edge', () => {
  /** Edge's EdgeInstanceData, as it posts it once a minute. */
  const instanceData = (appName: string, identifier: string, connectedEdges: unknown[] = []) => ({
    identifier, appName, region: null, edgeVersion: '20.1.0', processMetrics: { cpuUsage: 0.1, memoryUsage: 1234 },
    started: new Date().toISOString(), traffic: { cachedResponses: {}, get: { '/api/client/features': { avg: 1, count: 3, p99: 2 } }, post: {}, accessDenied: {} },
    latencyUpstream: { features: { avg: 3, count: 1, p99: 3 }, metrics: { avg: 0, count: 0, p99: 0 }, edge: { avg: 0, count: 0, p99: 0 } },
    requestsSinceLastReport: {}, connectedStreamingClients: 0, connectedEdges,
    connectionConsumptionSinceLastReport: { features: [], metrics: [] }, requestConsumptionSinceLastReport: [],
  });

  it('answers 202 and keeps each Edge, and each Edge connected to it, as an application with its Edge version', async () => {
    const token = await sdkToken(services);
    const [edge, downstream] = [unique('edge'), unique('edge-downstream')];

    const res = await call({
      method: 'POST', path: '/api/client/metrics/edge', token, headers: EDGE_HEADERS,
      body: instanceData(edge, '01JQ5ZB6Y2M4V7X9A1C3E5G7H9', [instanceData(downstream, '01JQ5ZB6Y2M4V7X9A1C3E5G7HB')]),
    });

    expect(res.status, res.text).toBe(202);
    expect(await listedApplication(edge)).toMatchObject({ sdkVersion: 'unleash-edge:20.1.0' });
    expect(await listedApplication(downstream)).toMatchObject({ sdkVersion: 'unleash-edge:20.1.0' });
    expect(await services.clientApplications.get(edge)).toMatchObject({ instanceId: '01JQ5ZB6Y2M4V7X9A1C3E5G7H9', environment: 'development' });
  });

  it('answers 202 to a report it cannot use, and 403 to a frontend token as Unleash’s client API does', async () => {
    const token = await sdkToken(services);
    const frontend = await sdkToken(services, { type: 'frontend' });

    const odd = await call({ method: 'POST', path: '/api/client/metrics/edge', token, body: { connectedEdges: 'none' } });
    const fromBrowser = await call({ method: 'POST', path: '/api/client/metrics/edge', token: frontend, body: instanceData('x', 'y') });

    expect(odd.status).toBe(202);
    expect(fromBrowser.status).toBe(403);
  });

  it('answers 202 to a connected Edge with a start time the store could not keep and odd fields, and keeps only what it can', async () => {
    const token = await sdkToken(services);
    const downstream = unique('edge-odd');

    const res = await call({
      method: 'POST', path: '/api/client/metrics/edge', token, headers: EDGE_HEADERS,
      body: {
        connectedEdges: [{ appName: downstream, identifier: 'odd-1', started: 6.47650052830861e-303, connectedEdges: '$~', edgeVersion: 'userId', region: { '': [] }, __proto__x: 1 }],
      },
    });

    expect(res.status, res.text).toBe(202);
    expect(await listedApplication(downstream)).toMatchObject({ sdkVersion: 'unleash-edge:userId' });
  });

  it('answers a 503 saying part was stored when a connected Edge’s registration is refused after the Edge’s own was written (route fuzz, seed 72058)', async () => {
    let calls = 0;
    const usage = new EdgeUsage({
      register: async () => { calls += 1; if (calls > 1) throw new ServiceUnavailable('engine fault'); },
      recordBulkCounts: async () => {},
    } as unknown as ConstructorParameters<typeof EdgeUsage>[0]);
    const caller = { type: 'client', environment: 'development', projects: ['*'] } as unknown as Caller;
    const report = { appName: 'U', identifier: 'fz-value', connectedEdges: [{ appName: 'V', started: 6.47650052830861e-303, edgeVersion: 'userId' }] };

    await expect(usage.recordInstance(caller, report as unknown as EdgeInstanceReport)).rejects.toBeInstanceOf(WrittenBeforeFailure);
    calls = 0;
    await expect(usage.recordInstance(caller, { connectedEdges: [{ appName: 'W' }] } as unknown as EdgeInstanceReport)).resolves.toBeUndefined();
  });
});
