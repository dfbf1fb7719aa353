import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { isolatedServices, putFeature } from '../support/client.js';
import { featureSteps } from '../support/features.js';
import { adminToken, unique } from '../support/services.js';

/**
 * A flag's lifecycle stages (Unleash 7): entered by the changes that define them, completed and
 * uncompleted from the flag page, counted on the dashboard, shown on the flag and in search.
 */
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;
let steps: ReturnType<typeof featureSteps>;

beforeAll(async () => {
  // A table of its own: the count covers every flag of the table.
  services = await isolatedServices();
  call = apiClient(services);
  token = await adminToken(services);
  steps = featureSteps(call, token);
});

const lifecycleOf = (name: string) => call({ method: 'GET', path: `${steps.base('default', name)}/lifecycle`, token });
const complete = (name: string, body: unknown) => call({ method: 'POST', path: `${steps.base('default', name)}/lifecycle/complete`, token, body });
const uncomplete = (name: string) => call({ method: 'POST', path: `${steps.base('default', name)}/lifecycle/uncomplete`, token });
const count = async () => (await call({ method: 'GET', path: '/api/admin/lifecycle/count', token })).body;
const eventTypesOf = async (name: string) => {
  const res = await call({ method: 'GET', path: `/api/admin/search/events?feature=IS:${name}`, token });
  return (res.body.events as Array<{ type: string; featureName: string }>).filter((event) => event.featureName === name).map((event) => event.type);
};

describe('lifecycle stages', () => {
  it('a new flag enters initial when it is created, and its answer shows the stage', async () => {
    const name = await steps.createFeature();

    const res = await lifecycleOf(name);

    const feature = (await steps.getFeature('default', name)).body;
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ stage: 'initial', enteredStageAt: feature.createdAt }]);
    expect(feature.lifecycle).toEqual({ stage: 'initial', enteredStageAt: feature.createdAt });
  });

  it('complete records the status, shows completed, writes feature-completed, and uncomplete takes it back', async () => {
    const name = await steps.createFeature();

    const completed = await complete(name, { status: 'kept', statusValue: 'on' });

    expect(completed.status).toBe(200);
    const stages = (await lifecycleOf(name)).body;
    expect(stages.map((stage: { stage: string }) => stage.stage)).toEqual(['initial', 'completed']);
    expect(stages[1]).toMatchObject({ stage: 'completed', status: 'kept' });
    expect((await steps.getFeature('default', name)).body.lifecycle).toMatchObject({ stage: 'completed', status: 'kept' });

    const back = await uncomplete(name);

    expect(back.status).toBe(200);
    expect((await lifecycleOf(name)).body.map((stage: { stage: string }) => stage.stage)).toEqual(['initial']);
    expect(await eventTypesOf(name)).toEqual(expect.arrayContaining(['feature-completed', 'feature-uncompleted']));
  });

  it('a second completion keeps the first one, as Unleash records each stage once', async () => {
    const name = await steps.createFeature();
    await complete(name, { status: 'kept' });

    await complete(name, { status: 'discarded' });

    expect((await lifecycleOf(name)).body.filter((stage: { stage: string }) => stage.stage === 'completed'))
      .toEqual([expect.objectContaining({ status: 'kept' })]);
  });

  it('archiving enters archived, and reviving starts again at initial alone', async () => {
    const name = await steps.createFeature();
    await complete(name, { status: 'discarded' });

    await call({ method: 'DELETE', path: steps.base('default', name), token });

    expect((await lifecycleOf(name)).body.map((stage: { stage: string }) => stage.stage)).toEqual(['initial', 'completed', 'archived']);
    await call({ method: 'POST', path: `/api/admin/archive/revive/${name}`, token });
    const revived = (await lifecycleOf(name)).body;
    expect(revived).toEqual([{ stage: 'initial', enteredStageAt: expect.any(String) }]);
    expect(Date.parse(revived[0].enteredStageAt)).toBeGreaterThan(Date.parse((await steps.getFeature('default', name)).body.createdAt));
  });

  it('refuses a status Unleash does not know, an unknown field and an unknown flag, storing nothing', async () => {
    const name = await steps.createFeature();

    const badStatus = await complete(name, { status: 'done' });
    const extraField = await complete(name, { status: 'kept', reason: 'x' });
    const unknown = await complete(unique('missing'), { status: 'kept' });

    expect([badStatus.status, badStatus.body.name]).toEqual([400, 'ValidationError']);
    expect(badStatus.body.message).toContain('status');
    expect(extraField.status).toBe(400);
    expect([unknown.status, unknown.body.name]).toEqual([404, 'NotFoundError']);
    expect((await lifecycleOf(name)).body).toHaveLength(1);
  });

  it('a flag stored before stages were recorded is initial since it was created, and archived since it was archived', async () => {
    const createdAt = '2025-01-02T03:04:05.000Z';
    const archivedAt = '2025-02-03T04:05:06.000Z';
    const name = unique('old');
    await putFeature(services, { name, createdAt, archived: true, archivedAt });

    const res = await lifecycleOf(name);

    expect(res.body).toEqual([{ stage: 'initial', enteredStageAt: createdAt }, { stage: 'archived', enteredStageAt: archivedAt }]);
  });

  it('the count puts every flag under the stage it entered last, archived flags too', async () => {
    const before = await count();
    const [initial, completed, archived] = [await steps.createFeature(), await steps.createFeature(), await steps.createFeature()];
    await complete(completed, { status: 'kept' });
    await call({ method: 'DELETE', path: steps.base('default', archived), token });

    const after = await count();

    expect(initial).toBeTruthy();
    expect(after).toEqual({
      initial: before.initial + 1, preLive: before.preLive, live: before.live,
      completed: before.completed + 1, archived: before.archived + 1,
    });
  });

  it("search filters by the flag's current stage and lists it", async () => {
    const completed = await steps.createFeature('default', unique('stage-done'));
    const fresh = await steps.createFeature('default', unique('stage-new'));
    await complete(completed, { status: 'kept' });

    const res = await call({ method: 'GET', path: '/api/admin/search/features?project=IS:default&lifecycle=IS:completed&query=stage-', token });

    const names = (res.body.features as Array<{ name: string }>).map((feature) => feature.name);
    expect(names).toContain(completed);
    expect(names).not.toContain(fresh);
    expect(res.body.features.find((feature: { name: string }) => feature.name === completed).lifecycle)
      .toMatchObject({ stage: 'completed', status: 'kept' });
  });
});
