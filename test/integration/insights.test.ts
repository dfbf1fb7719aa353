import { beforeAll, describe, expect, it } from 'vitest';
import { insightPorts } from '../../lib/composition/slices/insights.js';
import { InsightsService } from '../../lib/insights/service.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { DynamoSnapshotStore } from '../../lib/insights/dynamo-store.js';
import { apiClient } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { adminToken, testConfig, testServices, unique } from '../support/services.js';

const services = testServices();
const call = apiClient(services);
const config = testConfig();
let token: string;
let steps: ReturnType<typeof featureSteps>;

beforeAll(async () => {
  token = await adminToken(services);
  steps = featureSteps(call, token);
});

/** Insights as of a chosen moment, on the shared table, so snapshots of different days can be taken. */
const insightsAt = (now: Date) =>
  new InsightsService(
    insightPorts(services.composition),
    new DynamoSnapshotStore(createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint }), config.tableName),
    () => now,
  );

describe('E14 insights', () => {
  it('answers every required field, with live user and flag totals', async () => {
    const email = `${unique('insight')}@example.com`;
    await call({ method: 'POST', path: '/api/admin/user-admin', token, body: { email, name: 'Insight', rootRole: 3 } });
    await steps.createFeature();

    const res = await call({ method: 'GET', path: '/api/admin/insights', token });

    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'environmentTypeTrends', 'flagTrends', 'flags', 'metricsSummaryTrends', 'projectFlagTrends', 'userTrends', 'users',
    ]);
    expect(res.body.users.total).toBeGreaterThanOrEqual(1);
    expect(res.body.users.total).toBe(res.body.users.active + res.body.users.inactive);
    expect(res.body.flags.total).toBeGreaterThanOrEqual(1);
  });

  it('gains a trend point per snapshot, with project figures and the previous day\'s SDK usage', async () => {
    const project = await steps.createProject();
    const [fresh, old] = [await steps.createFeature(project), await steps.createFeature(project)];
    await call({ method: 'POST', path: `/api/admin/projects/${project}/stale`, token, body: { features: [old], stale: true } });
    await steps.turn(project, fresh, 'production', 'on');
    await call({
      method: 'POST', path: '/api/client/metrics', token,
      body: { appName: 'insights-app', instanceId: 'i1', bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: { [fresh]: { yes: 7, no: 3, variants: {} } } } },
    });
    // The scheduled run: five past midnight UTC, summing up the day that just ended (today).
    const today = new Date();
    const tomorrow = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1, 0, 5));
    const before = (await insightsAt(tomorrow).insights()).projectFlagTrends.filter((p) => p.project === project);

    await insightsAt(tomorrow).snapshot();
    const after = await insightsAt(tomorrow).insights();

    expect(before).toEqual([]);
    const date = tomorrow.toISOString().slice(0, 10);
    expect(after.projectFlagTrends.filter((p) => p.project === project)).toEqual([
      expect.objectContaining({ date, total: 2, stale: 1, active: 1, potentiallyStale: 0, health: 50 }),
    ]);
    expect(after.metricsSummaryTrends.find((m) => m.project === project && m.date === date)).toMatchObject({
      totalRequests: 10, totalYes: 7, totalNo: 3, totalApps: 1, totalFlags: 1, totalEnvironments: 1,
    });
    expect(after.userTrends.find((u) => u.date === date)).toBeDefined();
    expect(after.flagTrends.find((f) => f.date === date)?.stale).toBeGreaterThanOrEqual(1);
    const production = after.environmentTypeTrends.find((e) => e.date === date && e.environmentType === 'production');
    expect(production?.totalUpdates).toBeGreaterThanOrEqual(1);
    expect(production?.week).toMatch(/^\d{4}-\d{2}$/);
  });
});
