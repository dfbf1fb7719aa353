import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { isolatedServices, sdkToken } from '../support/client.js';
import { adminToken } from '../support/services.js';

let services: Services;
let call: ReturnType<typeof apiClient>;
let admin: string;

/** The register body of the Node SDK (unleash-client 6.12.1), and of the browser SDK (unleash-proxy-client). */
const registration = (appName: string, instanceId: string, sdkVersion = 'unleash-node-sdk:6.12.1') => ({
  appName, instanceId, sdkVersion, strategies: ['default', 'flexibleRollout'], started: new Date().toISOString(), interval: 1000,
});

const get = (path: string) => call({ method: 'GET', path, token: admin });

// A table of its own, so the whole list holds exactly the applications registered here.
beforeAll(async () => {
  services = await isolatedServices();
  call = apiClient(services);
  admin = await adminToken(services);
  const development = await sdkToken(services);
  const production = await sdkToken(services, { environment: 'production', projects: ['default'] });
  const browser = await sdkToken(services, { type: 'frontend' });
  for (const [token, path, body] of [
    [development, '/api/client/register', registration('checkout', 'pod-1')],
    [production, '/api/client/register', registration('checkout', 'pod-2', 'unleash-node-sdk:6.11.0')],
    [development, '/api/client/register', registration('billing', 'pod-3')],
    [browser, '/api/frontend/client/register', registration('storefront', 'browser-1', 'unleash-client-js:3.8.2')],
  ] as const) {
    const res = await call({ method: 'POST', path, token, body });
    expect(res.status, res.text).toBeLessThan(300);
  }
});

describe('applications (GET /api/admin/metrics/applications)', () => {
  it('lists each registered application once, with where it was used, by name, with the total', async () => {
    const res = await get('/api/admin/metrics/applications');

    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.applications.map((a: { appName: string }) => a.appName)).toEqual(['billing', 'checkout', 'storefront']);
    expect(res.body.applications[1]).toEqual({
      appName: 'checkout', sdkVersion: expect.stringMatching(/^unleash-node-sdk:6\.1[12]\.\d$/), strategies: ['default', 'flexibleRollout'],
      usage: [{ project: '*', environments: ['development'] }, { project: 'default', environments: ['production'] }],
    });
  });

  it('searches by name, sorts and pages', async () => {
    const found = await get('/api/admin/metrics/applications?query=CHECK');
    const page = await get('/api/admin/metrics/applications?sortBy=appName&sortOrder=desc&offset=1&limit=1');
    // Unleash sorts by name whatever field is named; the UI's project page names createdAt.
    const byOtherField = await get('/api/admin/projects/default/applications?sortBy=createdAt&sortOrder=desc&offset=0&limit=25');

    expect(found.body).toMatchObject({ total: 1, applications: [{ appName: 'checkout' }] });
    expect(page.body).toMatchObject({ total: 3, applications: [{ appName: 'checkout' }] });
    expect(byOtherField.body.applications.map((a: { name: string }) => a.name)).toEqual(['storefront', 'checkout', 'billing']);
  });

  it("lists a project's applications: registered with its token or one of every project", async () => {
    const res = await get('/api/admin/projects/default/applications');
    const other = await get('/api/admin/projects/elsewhere/applications');

    const checkout = res.body.applications.find((a: { name: string }) => a.name === 'checkout');
    expect(res.body.total).toBe(3);
    expect(checkout).toEqual({
      name: 'checkout', environments: ['development', 'production'], instances: ['pod-1', 'pod-2'],
      sdks: [{ name: 'unleash-node-sdk', versions: ['6.11.0', '6.12.1'] }],
    });
    expect(other.body.applications.map((a: { name: string }) => a.name)).toEqual(['billing', 'checkout', 'storefront']);
  });

  it('refuses a malformed page or sort with a 400 naming it', async () => {
    for (const [query, field] of [['limit=0', 'limit'], ['offset=x', 'offset'], ['sortOrder=up', 'sortOrder']]) {
      const res = await get(`/api/admin/metrics/applications?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message).toContain(field);
    }
  });
});

describe('one application', () => {
  it('answers its SDK, strategies and usage, and 404 for a name never registered', async () => {
    const res = await get('/api/admin/metrics/applications/billing');
    const unknown = await get('/api/admin/metrics/applications/nobody');

    expect(res.body).toEqual({
      appName: 'billing', sdkVersion: 'unleash-node-sdk:6.12.1', strategies: ['default', 'flexibleRollout'],
      usage: [{ project: '*', environments: ['development'] }],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Could not find application with appName nobody');
  });

  it('gives an overview per environment, telling browser SDKs from backend ones', async () => {
    const checkout = await get('/api/admin/metrics/applications/checkout/overview');
    const storefront = await get('/api/admin/metrics/applications/storefront/overview');

    expect(checkout.body).toMatchObject({
      projects: ['*', 'default'], featureCount: 0, issues: { missingStrategies: [] },
      environments: [
        { name: 'development', instanceCount: 1, sdks: ['unleash-node-sdk:6.12.1'], backendSdks: ['unleash-node-sdk:6.12.1'], frontendSdks: [] },
        { name: 'production', instanceCount: 1, sdks: ['unleash-node-sdk:6.11.0'] },
      ],
    });
    expect(storefront.body.environments[0]).toMatchObject({ frontendSdks: ['unleash-client-js:3.8.2'], backendSdks: [] });
  });

  it('lists its instances in one environment', async () => {
    const res = await get('/api/admin/metrics/instances/checkout/environment/production');
    const none = await get('/api/admin/metrics/instances/checkout/environment/staging');

    expect(res.body).toEqual({ instances: [{ instanceId: 'pod-2', sdkVersion: 'unleash-node-sdk:6.11.0', clientIp: null, lastSeen: expect.any(String) }] });
    expect(none.body).toEqual({ instances: [] });
  });
});
