import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { sdkToken } from '../support/client.js';
import { featureSteps } from '../support/features.js';
import { adminToken, testServices, unique } from '../support/services.js';

/**
 * The flag page's metrics tab: the 7.6.5 UI lists the applications from the raw rows' `appName`
 * and shows only the rows of the applications selected, so a row without one is never shown
 * ("We have yet to receive any metrics").
 */
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;
let steps: ReturnType<typeof featureSteps>;

beforeAll(async () => {
  services = testServices();
  call = apiClient(services);
  token = await adminToken(services);
  steps = featureSteps(call, token);
});

/** One instant for every report of the file, so two reports never fall into two hours. */
const at = new Date().toISOString();
/** A report as an SDK sends it. */
const report = (appName: string, feature: string, yes: number, no: number) =>
  ({ appName, instanceId: unique('instance'), bucket: { start: at, stop: at, toggles: { [feature]: { yes, no, variants: {} } } } });
const rawRows = async (feature: string) => {
  // Two hours: the hour of `at` may have ended by the time the rows are read.
  const res = await call({ method: 'GET', path: `/api/admin/client-metrics/features/${feature}/raw?hoursBack=2`, token });
  expect(res.status).toBe(200);
  return res.body.data as Array<{ featureName: string; appName: string; environment: string; timestamp: string; yes: number; no: number }>;
};

describe('raw metrics rows', () => {
  it('name the application that reported them, with the environment and the hour', async () => {
    const feature = await steps.createFeature();
    const client = await sdkToken(services, { environment: 'development' });
    const appName = unique('checkout-web');

    const sent = await call({ method: 'POST', path: '/api/client/metrics', token: client, body: report(appName, feature, 3, 1) });

    expect(sent.status).toBe(202);
    const rows = await rawRows(feature);
    expect(rows).toEqual([expect.objectContaining({ featureName: feature, appName, environment: 'development', yes: 3, no: 1 })]);
    expect(rows[0]!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00\.000Z$/);
  });

  it('an hour reported by two applications names both, with the counts of both', async () => {
    const feature = await steps.createFeature();
    const client = await sdkToken(services, { environment: 'development' });
    const [first, second] = [unique('app-a'), unique('app-b')];

    await call({ method: 'POST', path: '/api/client/metrics', token: client, body: report(first, feature, 2, 0) });
    await call({ method: 'POST', path: '/api/client/metrics', token: client, body: report(second, feature, 1, 1) });

    const rows = await rawRows(feature);
    expect(rows).toEqual([expect.objectContaining({ appName: [first, second].sort().join(', '), yes: 3, no: 1 })]);
  });
});
