import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { STAGE_RECHECK_INTERVAL_MS } from '../../lib/client/metrics-lifecycle.js';
import { metricsLifecycle, metricsStages } from '../../lib/composition/metrics-services.js';
import { LocalMetricsQueue } from '../../local/metrics-queue.js';
import type { Services } from '../../local/app-services.js';
import { keys } from '../../lib/store/table-design.js';
import { apiClient } from '../support/api.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { sdkToken } from '../support/client.js';
import { featureSteps } from '../support/features.js';
import { adminToken, testServices, unique } from '../support/services.js';

/**
 * Lifecycle stages from SDK metrics, as Unleash 7 moves them: pre-live when a flag's evaluations
 * arrive from any environment, live when they arrive from a production-type environment where the
 * flag is on; never backwards, completed and archived flags untouched, no change event. Reports
 * go through the real route, the local queues with SQS's rules and both metrics stages, as under
 * `npm start` and in the cloud (ADR 15).
 */
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;
let steps: ReturnType<typeof featureSteps>;
let development: string;
let production: string;
let reports: LocalMetricsQueue;
let sums: LocalMetricsQueue;
/** How far the services' clock is ahead of the real time: the tests move it forward. */
let aheadMs = 0;
const clockMs = () => Date.now() + aheadMs;

beforeAll(async () => {
  // A table of its own, and a clock the tests move past the interval a process trusts what it learnt.
  const tableName = unique('lifecycle-metrics');
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodb').endpoint }, tableName);
  reports = new LocalMetricsQueue('reports');
  sums = new LocalMetricsQueue('sums');
  services = testServices({ TABLE_NAME: tableName }, { now: () => new Date(clockMs()), metricsQueue: reports });
  const stages = metricsStages(services.metrics, sums, services.composition.once(metricsLifecycle));
  reports.consume(stages.sum);
  sums.consume((bodies) => stages.store(bodies));
  await services.firstStart.ensure();
  call = apiClient(services);
  token = await adminToken(services);
  steps = featureSteps(call, token);
  development = await sdkToken(services, { environment: 'development' });
  production = await sdkToken(services, { environment: 'production' });
}, 120_000);

afterAll(async () => {
  await reports?.stop();
  await sums?.stop();
});

/** A report through the route, then both queues' windows closed, so its stages are stored. */
async function report(sdk: string, toggles: Record<string, { yes: number; no: number }>) {
  const res = await call({
    method: 'POST', path: '/api/client/metrics', token: sdk,
    body: { appName: 'lifecycle-app', instanceId: 'i-1', bucket: { start: new Date(clockMs() - 1000).toISOString(), stop: new Date(clockMs()).toISOString(), toggles } },
  });
  await reports.drain();
  await sums.drain();
  return res;
}
const stagesOf = async (name: string) => {
  const res = await call({ method: 'GET', path: `${steps.base('default', name)}/lifecycle`, token });
  expect(res.status).toBe(200);
  return (res.body as Array<{ stage: string }>).map((stage) => stage.stage);
};
const eventTypesOf = async (name: string) => {
  const res = await call({ method: 'GET', path: `/api/admin/search/events?feature=IS:${name}`, token });
  return (res.body.events as Array<{ type: string; featureName: string }>).filter((event) => event.featureName === name).map((event) => event.type);
};

describe('lifecycle stages from SDK metrics', () => {
  it('metrics from a development environment move a new flag to pre-live, with no change event', async () => {
    const name = await steps.createFeature();
    const eventsBefore = await eventTypesOf(name);

    expect((await report(development, { [name]: { yes: 2, no: 1 } })).status).toBe(202);

    expect(await stagesOf(name)).toEqual(['initial', 'pre-live']);
    expect(await eventTypesOf(name)).toEqual(eventsBefore);
    // The project copy (ADR 17) moves with the flag, so project reads agree.
    const copy = await services.composition.store.db.send(new GetCommand({
      TableName: services.composition.store.tableName, Key: keys.projectFeature('default', name), ConsistentRead: true,
    }));
    expect((copy.Item?.lifecycle as Array<{ stage: string }>).map((stage) => stage.stage)).toEqual(['initial', 'pre-live']);
  });

  it('metrics from production move a flag enabled there to live (through pre-live)', async () => {
    const name = await steps.createFeature();
    expect((await steps.turn('default', name, 'production', 'on')).status).toBe(200);
    const liveCount = async () => (await call({ method: 'GET', path: '/api/admin/lifecycle/count', token })).body.live as number;
    const liveBefore = await liveCount();

    await report(production, { [name]: { yes: 5, no: 0 } });

    expect(await stagesOf(name)).toEqual(['initial', 'pre-live', 'live']);
    expect((await steps.getFeature('default', name)).body.lifecycle).toMatchObject({ stage: 'live' });
    // SDK metrics never move the revision (SDKs' ETags stay valid); the counts lay the project's
    // metrics-stage items over the admin read model, so they count the flag live at once, and
    // once again after its next change.
    expect(await liveCount()).toBe(liveBefore + 1);
    expect((await steps.turn('default', name, 'development', 'on')).status).toBe(200);
    expect(await liveCount()).toBe(liveBefore + 1);
  });

  it('metrics from production for a flag off there give pre-live only; once on, the next report after the interval gives live', async () => {
    const name = await steps.createFeature();

    await report(production, { [name]: { yes: 0, no: 3 } });
    expect(await stagesOf(name)).toEqual(['initial', 'pre-live']);

    expect((await steps.turn('default', name, 'production', 'on')).status).toBe(200);
    aheadMs += STAGE_RECHECK_INTERVAL_MS;
    await report(production, { [name]: { yes: 1, no: 0 } });

    expect(await stagesOf(name)).toEqual(['initial', 'pre-live', 'live']);
  });

  it('never moves backwards, and leaves completed and archived flags as they are', async () => {
    const live = await steps.createFeature();
    await steps.turn('default', live, 'production', 'on');
    await report(production, { [live]: { yes: 1, no: 0 } });
    const completed = await steps.createFeature();
    expect((await call({ method: 'POST', path: `${steps.base('default', completed)}/lifecycle/complete`, token, body: { status: 'kept' } })).status).toBe(200);
    const archived = await steps.createFeature();
    expect((await call({ method: 'DELETE', path: `/api/admin/projects/default/features/${archived}`, token })).status).toBe(202);
    aheadMs += STAGE_RECHECK_INTERVAL_MS;

    await report(development, { [live]: { yes: 1, no: 0 }, [completed]: { yes: 1, no: 0 }, [archived]: { yes: 1, no: 0 } });

    expect(await stagesOf(live)).toEqual(['initial', 'pre-live', 'live']);
    expect(await stagesOf(completed)).toEqual(['initial', 'completed']);
    const archivedStages = await call({ method: 'GET', path: `${steps.base('default', archived)}/lifecycle`, token });
    expect((archivedStages.body as Array<{ stage: string }>).map((stage) => stage.stage)).toEqual(['initial', 'archived']);
  });

  it('writes a flag once per stage: repeated reports leave its version where the first put it', async () => {
    const name = await steps.createFeature();
    await report(development, { [name]: { yes: 1, no: 0 } });
    const versionOf = async () => (await services.featureStore.get(name))?.version;
    const after = await versionOf();

    aheadMs += STAGE_RECHECK_INTERVAL_MS;
    for (let i = 0; i < 3; i++) await report(development, { [name]: { yes: 1, no: 1 } });

    expect(await versionOf()).toBe(after);
    expect(await stagesOf(name)).toEqual(['initial', 'pre-live']);
  });
});
