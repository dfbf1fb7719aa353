import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { isolatedServices, putFeature, sdkToken } from '../support/client.js';
import { captureLogs } from '../support/logs.js';
import { adminToken, unique } from '../support/services.js';

let services: Services;
let call: ReturnType<typeof apiClient>;
let client: string;

beforeAll(async () => {
  services = await isolatedServices();
  call = apiClient(services);
  client = await sdkToken(services);
});

/** The register body the Node SDK sends (unleash-client 6.12.1). */
const registration = (appName: string) => ({
  appName, instanceId: 'instance-1', connectionId: 'c0ffee00-0000-4000-8000-000000000000',
  sdkVersion: 'unleash-node-sdk:6.12.1', strategies: ['default', 'flexibleRollout'], started: new Date().toISOString(),
  interval: 1000, platformName: 'node', platformVersion: '20.20.2', yggdrasilVersion: null, specVersion: '5.2.0',
});

const metrics = (toggles: Record<string, { yes: number; no: number }>, extra: Record<string, unknown> = {}) => ({
  appName: 'metrics-app', instanceId: 'instance-1',
  bucket: { start: new Date(Date.now() - 1000).toISOString(), stop: new Date().toISOString(), toggles },
  ...extra,
});

const post = (path: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  call({ method: 'POST', path, token, body, headers });

describe('POST /api/client/register', () => {
  it('answers 202 with no body and records the application in the token’s environment', async () => {
    const appName = unique('app');

    const res = await post('/api/client/register', client, registration(appName));

    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    expect(await services.clientApplications.get(appName)).toMatchObject({
      appName, instanceId: 'instance-1', sdkVersion: 'unleash-node-sdk:6.12.1',
      strategies: ['default', 'flexibleRollout'], environment: 'development', interval: 1000,
    });
  });

  it('answers 202 whatever the body or its content type, as the SDK stops after a 400 or 415', async () => {
    const logged = captureLogs();
    const odd: Array<{ rawBody: string; headers: Record<string, string> }> = [
      { rawBody: JSON.stringify(registration(unique('plain'))), headers: { 'Content-Type': 'text/plain' } },
      { rawBody: JSON.stringify(registration(unique('none'))), headers: {} },
      { rawBody: 'not json at all', headers: { 'Content-Type': 'application/json' } },
      { rawBody: '[1, 2, 3]', headers: { 'Content-Type': 'application/json' } },
      { rawBody: '', headers: {} },
    ];

    const results = await Promise.all(
      odd.map(({ rawBody, headers }) => call({ method: 'POST', path: '/api/client/register', token: client, rawBody, headers })),
    );

    expect(results.map((res) => res.status)).toEqual([202, 202, 202, 202, 202]);
    logged.restore();
    expect(logged.text()).toContain('SDK report body is not JSON');
  });

  it('still asks for a token with 401', async () => {
    const appName = unique('anonymous');
    const res = await call({ method: 'POST', path: '/api/client/register', body: registration(appName) });

    expect(res.status).toBe(401);
    expect(res.body.name).toBe('AuthenticationRequired');
    expect(res.body.message).toContain('Authorization header');
    expect(await services.clientApplications.get(appName)).toBeUndefined();
  });
});

describe('POST /api/client/metrics', () => {
  it('answers 202, adds yes/no to the hour’s counters and marks each feature seen in the token’s environment', async () => {
    const { name: feature } = await putFeature(services, { name: unique('counted') });
    const day = new Date().toISOString().slice(0, 10);

    const first = await post('/api/client/metrics', client, metrics({ [feature]: { yes: 3, no: 1 } }));
    await post('/api/client/metrics', client, metrics({ [feature]: { yes: 2, no: 4 } }));

    expect(first.status).toBe(202);
    expect(first.text).toBe('');
    const counts = (await services.metrics.hourlyCounts(day)).filter((count) => count.feature === feature);
    expect(counts).toEqual([expect.objectContaining({ environment: 'development', yes: 5, no: 5 })]);
    const seen = await services.lastSeen.forFeature(feature);
    expect(Object.keys(seen)).toEqual(['development']);
    expect(Date.now() - Date.parse(seen.development as string)).toBeLessThan(60_000);
    expect((await services.lastSeen.forAll()).get(feature)).toEqual(seen);
  });

  it('counts an admin token’s report for the environment its body names', async () => {
    const { name: feature } = await putFeature(services, { name: unique('admin-counted') });
    const admin = await adminToken(services);

    await post('/api/client/metrics', admin, metrics({ [feature]: { yes: 1, no: 0 } }, { environment: 'production' }));
    await post('/api/client/metrics', admin, metrics({ [feature]: { yes: 1, no: 0 } }));

    expect(Object.keys(await services.lastSeen.forFeature(feature)).sort()).toEqual(['development', 'production']);
  });

  it('keeps one feature’s last-seen apart from another whose name extends it', async () => {
    const { name: feature } = await putFeature(services, { name: unique('prefix') });
    await putFeature(services, { name: `${feature}-longer` });

    await post('/api/client/metrics', client, metrics({ [`${feature}-longer`]: { yes: 1, no: 0 } }));

    expect(await services.lastSeen.forFeature(feature)).toEqual({});
  });

  it('answers 202 for reports it cannot use, logs a warning and stores nothing from them', async () => {
    const logged = captureLogs();

    const results = await Promise.all([
      post('/api/client/metrics', client, { appName: 'no-bucket' }),
      post('/api/client/metrics', client, metrics({ 'not a name#': { yes: 1, no: 1 } })),
      call({ method: 'POST', path: '/api/client/metrics', token: client, rawBody: '{"bucket":', headers: { 'Content-Type': 'application/json' } }),
    ]);

    expect(results.map((res) => res.status)).toEqual([202, 202, 202]);
    expect((await services.lastSeen.forAll()).has('not a name#')).toBe(false);
    logged.restore();
    expect(logged.text()).toContain('metrics without a usable bucket');
  });

  it('does not move the revision, so SDK ETags stay valid', async () => {
    const before = await call({ method: 'GET', path: '/api/client/features', token: client });
    const { name: feature } = await putFeature(services, { name: unique('quiet') });
    const moved = await call({ method: 'GET', path: '/api/client/features', token: client });
    const appName = unique('quiet-app');

    await post('/api/client/metrics', client, metrics({ [feature]: { yes: 1, no: 1 } }));
    await post('/api/client/register', client, registration(appName));
    const after = await call({
      method: 'GET', path: '/api/client/features', token: client, headers: { 'If-None-Match': moved.headers.etag as string },
    });

    // A feature change moves the ETag; the two reports, though stored, do not.
    expect(moved.headers.etag).not.toBe(before.headers.etag);
    expect(after.status).toBe(304);
    expect(after.text).toBe('');
    const day = new Date().toISOString().slice(0, 10);
    expect((await services.metrics.hourlyCounts(day)).filter((count) => count.feature === feature)).toEqual([
      expect.objectContaining({ yes: 1, no: 1 }),
    ]);
    expect(await services.clientApplications.get(appName)).toMatchObject({ appName });
  });
});
