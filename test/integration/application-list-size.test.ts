import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ClientMetricsService } from '../../lib/client/metrics-service.js';
import { directMetricsQueue, MetricsWriter } from '../../lib/client/metrics-stages.js';
import type { Services } from '../../local/app-services.js';
import { ServiceUnavailable } from '../../lib/errors.js';
import { LAMBDA_MAX_RESPONSE_BYTES } from '../../lib/http/large-answers.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import type { Caller } from '../../lib/tokens/model.js';
import { apiClient } from '../support/api.js';
import { adminToken, testConfig, unique, servicesOn } from '../support/services.js';
import { seededRandom } from '../support/seeded-random.js';

// The measurement of application-registration-limits.test.ts that takes most of a minute (a
// thousand 10 KB registrations, paced by the partition's write throughput): a file of its own,
// so it runs with the slow tests while the registration rules stay in the edit loop.

/** Registrations are dated by this clock, not by the wall clock. */
const clock = () => new Date('2031-03-10T12:00:00.000Z');

let services: Services;
let call: ReturnType<typeof apiClient>;
let admin: string;

// A table of its own: the list holds exactly what this test registered.
beforeAll(async () => {
  const tableName = unique('applications-size');
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodb').endpoint }, tableName);
  services = servicesOn(testConfig({ TABLE_NAME: tableName }), { now: clock });
  await services.firstStart.ensure();
  call = apiClient(services);
  admin = await adminToken(services);
});

/** 75 random bytes as base64url, as a long strategy name compression cannot shrink. */
function incompressibleName(random: () => number): string {
  return Buffer.from(Array.from({ length: 75 }, () => Math.floor(random() * 256))).toString('base64url');
}

describe('the applications list stays within the answer limit', () => {
  it('answers a page of 1,000 large applications (100 long strategy names each) within what Lambda can return, saying the total', { timeout: 300_000 }, async () => {
    const metrics = new ClientMetricsService(
      directMetricsQueue(new MetricsWriter(services.metrics)), services.clientApplications, services.clientFeatures, clock,
    );
    const project = unique('project');
    await call({ method: 'POST', path: '/api/admin/projects', token: admin, body: { id: project, name: project } });
    const caller: Caller = { tokenName: 'browser', type: 'frontend', environment: 'development', projects: [project] };
    const prefix = unique('large');
    const count = 1_000;
    // Random names, so compression cannot shrink the answer below the limit.
    const { next } = seededRandom('strategy names');
    const strategies = () => Array.from({ length: 100 }, () => incompressibleName(next));
    // One at a time, waiting when throttled: the registrations share a partition, which takes
    // 1,000 write units a second, and a new 10 KB registration's transaction costs 20.
    for (let n = 0; n < count; n += 1) {
      const body = {
        appName: `${prefix}-${String(n).padStart(4, '0')}`, instanceId: 'i', sdkVersion: 'unleash-client-js:3.8.2',
        strategies: strategies(), started: clock().toISOString(), interval: 30_000,
      };
      for (;;) {
        try {
          await metrics.register(caller, body);
          break;
        } catch (error) {
          if (!(error instanceof ServiceUnavailable)) throw error;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    }

    const res = await call({ method: 'GET', path: `/api/admin/metrics/applications?query=${prefix}&limit=1000`, token: admin, headers: { 'Accept-Encoding': 'gzip' } });

    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.total).toBe(count);
    expect(res.body.applications.length).toBeGreaterThan(0);
    expect(res.body.applications[0].appName).toBe(`${prefix}-0000`);
    expect(Buffer.byteLength(res.text)).toBeLessThan(LAMBDA_MAX_RESPONSE_BYTES);
  });
});
