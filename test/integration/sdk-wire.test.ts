import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { apiClient, type ApiResponse } from '../support/api.js';
import { isolatedServices, putFeature, sdkToken } from '../support/client.js';
import { unique } from '../support/services.js';

/**
 * Issue 26, item 2: what today's SDKs send, exactly as their sources build it, answered 2xx on
 * every SDK route. The bodies and headers are copied from what each SDK puts on the wire:
 * unleash-client (Node) 6.12.1 (lib/request.js, lib/metrics.js), the Go SDK v5.1.0
 * (repository.go, metrics.go, client.go), UnleashClient (Python) 6 (api/, periodic_tasks/),
 * unleash-client-java 12.2.3 (ClientRegistration, ClientMetrics, the OkHttp senders),
 * unleash-proxy-client 3.8.2 for the Frontend API, and Unleash Edge 20.1.0 (its http client).
 * Also the ETag rules every poller relies on: a quoted ETag, and 304 only for a matching
 * If-None-Match that was sent.
 */

let services: Services;
let call: ReturnType<typeof apiClient>;
let client: string;
let frontend: string;
let feature: string;

beforeAll(async () => {
  services = await isolatedServices();
  call = apiClient(services);
  client = await sdkToken(services);
  frontend = await sdkToken(services, { type: 'frontend' });
  feature = (await putFeature(services, { name: unique('wire') })).name;
});

const started = () => new Date(Date.now() - 60_000).toISOString();
const bucketOf = (toggles: Record<string, unknown>) => ({ start: started(), stop: new Date().toISOString(), toggles });
const impactMetrics = [
  { name: 'orders_total', help: 'Orders placed', type: 'counter', samples: [{ labels: { appName: 'shop', environment: 'development' }, value: 7 }] },
  { name: 'checkout_seconds', help: 'Checkout time', type: 'histogram', samples: [{ labels: {}, count: 2, sum: 1.5, buckets: [{ le: 0.5, count: 1 }, { le: '+Inf', count: 2 }] }] },
];

interface SdkWire {
  sdk: string;
  /** Headers on every request besides Authorization, as the SDK spells them. */
  headers: Record<string, string>;
  register: Record<string, unknown>;
  metrics: () => Record<string, unknown>;
  /** The features request's query string, if the SDK adds one. */
  featuresQuery?: string;
}

const SDKS: SdkWire[] = [
  {
    sdk: 'unleash-client (Node) 6.12.1',
    // Registration carries no interval, so the header is the text "undefined".
    headers: {
      'User-Agent': 'node-app', 'unleash-appname': 'node-app', 'UNLEASH-INSTANCEID': 'node-host-1', 'unleash-sdk': 'unleash-node-sdk:6.12.1',
      'unleash-connection-id': 'c0ffee00-0000-4000-8000-000000000001', 'unleash-interval': 'undefined', 'Unleash-Client-Spec': '5.2.2',
    },
    register: {
      appName: 'node-app', instanceId: 'node-host-1', connectionId: 'c0ffee00-0000-4000-8000-000000000001', sdkVersion: 'unleash-node-sdk:6.12.1',
      strategies: ['default', 'applicationHostname', 'gradualRolloutRandom', 'gradualRolloutSessionId', 'gradualRolloutUserId', 'remoteAddress', 'userWithId', 'flexibleRollout'],
      started: started(), interval: 60000, platformName: 'Node.js', platformVersion: '20.20.2', yggdrasilVersion: null, specVersion: '5.2.2',
    },
    metrics: () => ({
      appName: 'node-app', instanceId: 'node-host-1', connectionId: 'c0ffee00-0000-4000-8000-000000000001',
      bucket: bucketOf({ [feature]: { yes: 2, no: 0, variants: {} } }), platformName: 'Node.js', platformVersion: '20.20.2',
      yggdrasilVersion: null, specVersion: '5.2.2', sdkFlavor: 'unleash-openfeature-node-provider', sdkFlavorVersion: '0.2.0', impactMetrics,
    }),
  },
  {
    sdk: 'Go SDK v5.1.0',
    headers: {
      'UNLEASH-APPNAME': 'go-app', 'UNLEASH-INSTANCEID': 'go-host-1', 'User-Agent': 'go-app', 'Unleash-Interval': '15000',
      'Unleash-Client-Spec': '4.3.1', 'unleash-sdk': 'unleash-go-sdk:5.1.0', 'unleash-connection-id': 'c0ffee00-0000-4000-8000-000000000002',
    },
    register: {
      appName: 'go-app', instanceId: 'go-host-1', connectionId: 'c0ffee00-0000-4000-8000-000000000002', sdkVersion: 'unleash-go-sdk:5.1.0',
      strategies: ['default', 'applicationHostname', 'gradualRolloutRandom', 'gradualRolloutSessionId', 'gradualRolloutUserId', 'remoteAddress', 'userWithId', 'flexibleRollout'],
      started: started(), interval: 60000, platformVersion: 'go1.25.1', platformName: 'go', yggdrasilVersion: null, specVersion: '4.3.1',
    },
    // The Go SDK always sends a bucket (a struct), empty when only impact metrics are due.
    metrics: () => ({
      appName: 'go-app', instanceId: 'go-host-1', connectionId: 'c0ffee00-0000-4000-8000-000000000002',
      bucket: bucketOf({ [feature]: { yes: 1, no: 1, variants: { disabled: 1 } } }), platformVersion: 'go1.25.1', platformName: 'go',
      yggdrasilVersion: null, sdkVersion: 'unleash-go-sdk:5.1.0', specVersion: '4.3.1', impactMetrics,
    }),
    featuresQuery: '?project=default',
  },
  {
    sdk: 'UnleashClient (Python) 6',
    headers: {
      'unleash-connection-id': 'c0ffee00-0000-4000-8000-000000000003', 'unleash-appname': 'python-app', 'unleash-sdk': 'unleash-client-python:6.3.0',
      'unleash-interval': '60000', 'Content-Type': 'application/json', 'Unleash-Client-Spec': '5.1.9',
    },
    register: {
      appName: 'python-app', instanceId: 'unleash-client-python', connectionId: 'c0ffee00-0000-4000-8000-000000000003', sdkVersion: 'unleash-client-python:6.3.0',
      strategies: ['default', 'gradualRolloutRandom', 'gradualRolloutSessionId', 'gradualRolloutUserId', 'remoteAddress', 'userWithId', 'applicationHostname', 'flexibleRollout'],
      started: started(), interval: 60000, platformName: 'CPython', platformVersion: '3.11.2', yggdrasilVersion: '0.13.0', specVersion: '5.1.9',
    },
    metrics: () => ({
      appName: 'python-app', instanceId: 'unleash-client-python', connectionId: 'c0ffee00-0000-4000-8000-000000000003',
      bucket: bucketOf({ [feature]: { yes: 3, no: 0, variants: {} } }), platformName: 'CPython', platformVersion: '3.11.2',
      yggdrasilVersion: '0.13.0', specVersion: '5.1.9',
    }),
  },
  {
    sdk: 'unleash-client-java 12.2.3',
    // Java names an environment in its bodies (the old SDKs' field) and upper-cases its headers.
    headers: {
      'User-Agent': 'java-app', 'UNLEASH-APPNAME': 'java-app', 'UNLEASH-INSTANCEID': 'java-host-1', 'UNLEASH-CONNECTION-ID': 'c0ffee00-0000-4000-8000-000000000004',
      'UNLEASH-SDK': 'unleash-client-java:12.2.3', 'UNLEASH-INTERVAL': '60000', 'Unleash-Client-Spec': '5.2.2',
    },
    register: {
      environment: 'default', appName: 'java-app', instanceId: 'java-host-1', sdkVersion: 'unleash-client-java:12.2.3',
      connectionId: 'c0ffee00-0000-4000-8000-000000000004', started: started(), strategies: ['default', 'flexibleRollout', 'remoteAddress'],
      interval: 60000, specVersion: '5.2.2', platformName: 'OpenJDK 64-Bit Server VM', platformVersion: '17.0.13', yggdrasilVersion: '0.18.1',
    },
    metrics: () => ({
      environment: 'default', appName: 'java-app', instanceId: 'java-host-1', connectionId: 'c0ffee00-0000-4000-8000-000000000004',
      bucket: bucketOf({ [feature]: { yes: 5, no: 2, variants: {} } }), specVersion: '5.2.2',
      platformName: 'OpenJDK 64-Bit Server VM', platformVersion: '17.0.13', yggdrasilVersion: '0.18.1',
    }),
  },
  {
    sdk: 'Unleash Edge 20.1.0 (its own registration and polls)',
    headers: {
      'user-agent': 'unleash-edge-20.1.0', 'unleash-appname': 'unleash-edge', 'unleash-instanceid': '01JQ5ZB6Y2M4V7X9A1C3E5G7H9',
      'unleash-connection-id': '01JQ5ZB6Y2M4V7X9A1C3E5G7HA', 'unleash-client-spec': '5.2.2', 'unleash-interval': '15000',
    },
    register: {
      appName: 'unleash-edge', connectVia: null, environment: 'development', projects: ['*'], instanceId: '01JQ5ZB6Y2M4V7X9A1C3E5G7H9',
      connectionId: '01JQ5ZB6Y2M4V7X9A1C3E5G7HA', interval: 15, started: started(), strategies: [], sdkVersion: 'unleash-edge:20.1.0',
      sdkType: 'backend', yggdrasilVersion: null, platformName: null, platformVersion: null,
    },
    metrics: () => ({ appName: 'unleash-edge', instanceId: '01JQ5ZB6Y2M4V7X9A1C3E5G7H9', bucket: null, impactMetrics }),
  },
];

const withToken = (token: string, headers: Record<string, string>) => ({ token, headers });

describe.each(SDKS)('$sdk', ({ headers, register, metrics, featuresQuery = '' }) => {
  it('registers, reports metrics, and polls with 304 once current: every answer 2xx or 304', async () => {
    const registered = await call({ method: 'POST', path: '/api/client/register', body: register, ...withToken(client, headers) });
    const reported = await call({ method: 'POST', path: '/api/client/metrics', body: metrics(), ...withToken(client, headers) });
    const impactOnly = await call({
      method: 'POST', path: '/api/client/metrics', ...withToken(client, headers),
      body: { appName: register.appName, instanceId: register.instanceId, bucket: null, impactMetrics },
    });
    const polled = await call({ method: 'GET', path: `/api/client/features${featuresQuery}`, ...withToken(client, { ...headers, 'Accept-Encoding': 'gzip' }) });
    const again = await call({ method: 'GET', path: `/api/client/features${featuresQuery}`, ...withToken(client, { ...headers, 'If-None-Match': polled.headers.etag as string }) });

    expect([registered.status, reported.status, impactOnly.status], registered.text + reported.text + impactOnly.text).toEqual([202, 202, 202]);
    expect(polled.status).toBe(200);
    expect(JSON.parse(polled.text).features.map((f: { name: string }) => f.name)).toContain(feature);
    expect(again.status).toBe(304);
    expect(await services.clientApplications.get(register.appName as string)).toMatchObject({ appName: register.appName, environment: 'development' });
    const counted = (await services.metrics.hourlyCounts(new Date().toISOString().slice(0, 10))).filter((entry) => entry.feature === feature);
    const countedFor = counted.flatMap((entry) => entry.apps ?? []);
    if (metrics().bucket) expect(countedFor).toContain(register.appName);
    else expect(countedFor).not.toContain(register.appName);
  });
});

describe('the Frontend API with unleash-proxy-client 3.8.2', () => {
  const headers = {
    'unleash-appname': 'web-app', 'unleash-sdk': 'unleash-client-js:3.8.2', 'unleash-connection-id': 'c0ffee00-0000-4000-8000-000000000005',
    'x-unleash-custom': 'kept-out-of-the-way', accept: 'application/json',
  };

  it('fetches, registers and reports, also a report with impact metrics and no bucket', async () => {
    const fetched = await call({ method: 'GET', path: '/api/frontend?appName=web-app&environment=default&sessionId=42', ...withToken(frontend, headers) });
    const registered = await call({
      method: 'POST', path: '/api/frontend/client/register', ...withToken(frontend, headers),
      body: { appName: 'web-app', instanceId: 'browser', sdkVersion: 'unleash-client-js:3.8.2', environment: 'default', interval: 30000, started: started(), strategies: [] },
    });
    const reported = await call({
      method: 'POST', path: '/api/frontend/client/metrics', ...withToken(frontend, headers),
      body: { appName: 'web-app', instanceId: 'browser', environment: 'default', bucket: bucketOf({ [feature]: { yes: 1, no: 0, variants: {} } }) },
    });
    const impactOnly = await call({
      method: 'POST', path: '/api/frontend/client/metrics', ...withToken(frontend, headers),
      body: { appName: 'web-app', instanceId: 'browser', bucket: null, impactMetrics, sdkFlavor: 'react', sdkFlavorVersion: '5.0.0' },
    });

    expect(fetched.status).toBe(200);
    expect(fetched.body.toggles.map((toggle: { name: string }) => toggle.name)).toContain(feature);
    expect([registered.status, reported.status, impactOnly.status]).toEqual([200, 200, 200]);
  });
});

describe('fields and headers no SDK route knows', () => {
  it('never answers 400 for an unknown field, a null or a header of the unleash-* and x-unleash-* families', async () => {
    const headers = {
      'unleash-interval': 'undefined', 'x-unleash-appname': 'odd-app', 'x-unleash-connection-id': 'not-a-uuid', 'unleash-future-header': '1',
    };
    const odd = { appName: 'odd-app', instanceId: null, sdkVersion: 42, strategies: null, started: {}, interval: 'soon', somethingNew: { deep: [1] } };

    const answers: ApiResponse[] = await Promise.all([
      call({ method: 'POST', path: '/api/client/register', body: odd, ...withToken(client, headers) }),
      call({ method: 'POST', path: '/api/client/metrics', body: { ...odd, bucket: { start: null, stop: null, toggles: null } }, ...withToken(client, headers) }),
      call({ method: 'POST', path: '/api/client/metrics/bulk', body: { applications: null, metrics: null, future: true }, ...withToken(client, headers) }),
      call({ method: 'GET', path: '/api/client/features?somethingNew=1&environment=production', ...withToken(client, headers) }),
      call({ method: 'GET', path: '/api/client/delta?somethingNew=1', ...withToken(client, headers) }),
      call({ method: 'POST', path: '/api/frontend/client/register', body: odd, ...withToken(frontend, headers) }),
      call({ method: 'POST', path: '/api/frontend/client/metrics', body: odd, ...withToken(frontend, headers) }),
      call({ method: 'POST', path: '/api/frontend', body: { context: { userId: '1' }, somethingNew: true }, ...withToken(frontend, headers) }),
    ]);

    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 200, 200, 200, 200, 200]);
  });
});

describe('ETags of the SDK polls', () => {
  it('GET /api/client/features answers a quoted ETag, and 304 only when If-None-Match was sent and names it', async () => {
    const first = await call({ method: 'GET', path: '/api/client/features', token: client });
    const withoutHeader = await call({ method: 'GET', path: '/api/client/features', token: client });
    const matching = await call({ method: 'GET', path: '/api/client/features', token: client, headers: { 'If-None-Match': first.headers.etag as string } });
    const unquoted = await call({ method: 'GET', path: '/api/client/features', token: client, headers: { 'If-None-Match': (first.headers.etag as string).replaceAll('"', '') } });
    const other = await call({ method: 'GET', path: '/api/client/features', token: client, headers: { 'If-None-Match': '"00000000:1"' } });
    const empty = await call({ method: 'GET', path: '/api/client/features', token: client, headers: { 'If-None-Match': '' } });

    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^"[0-9a-f]{8}:\d+"$/);
    expect(withoutHeader.status).toBe(200);
    expect(withoutHeader.headers.etag).toBe(first.headers.etag);
    expect(matching.status).toBe(304);
    expect(matching.text).toBe('');
    expect(matching.headers.etag).toBe(first.headers.etag);
    expect([unquoted.status, other.status, empty.status]).toEqual([200, 200, 200]);
  });

  it('a change answers 200 with a new ETag to the SDK that sends the old one', async () => {
    const before = await call({ method: 'GET', path: '/api/client/features', token: client });

    await putFeature(services, { name: unique('wire-change') });
    const after = await call({ method: 'GET', path: '/api/client/features', token: client, headers: { 'If-None-Match': before.headers.etag as string } });

    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('GET /api/client/delta answers a quoted ETag, a hydration without If-None-Match, and 304 only for the current revision', async () => {
    const hydration = await call({ method: 'GET', path: '/api/client/delta', token: client });
    const again = await call({ method: 'GET', path: '/api/client/delta', token: client });
    const current = await call({ method: 'GET', path: '/api/client/delta', token: client, headers: { 'If-None-Match': hydration.headers.etag as string } });

    expect(hydration.status).toBe(200);
    expect(hydration.headers.etag).toMatch(/^"\d+"$/);
    expect(JSON.parse(hydration.text).events[0].type).toBe('hydration');
    expect(again.status).toBe(200);
    expect(current.status).toBe(304);
  });
});
