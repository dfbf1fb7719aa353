import { describe, expect, it } from 'vitest';
import { countsSince } from '../../lib/store/request-counter.js';
import { adminSession, type ApiResponse } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { unique } from '../support/services.js';

const { services, call, token } = adminSession();
const steps = featureSteps(call, token);

const today = () => new Date().toISOString().slice(0, 10);
const search = (query: Record<string, string>) =>
  call({ method: 'GET', path: `/api/admin/search/events?${new URLSearchParams(query).toString()}`, token });

function expectBadRequest(res: ApiResponse, field: string): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.name).toBe('ValidationError');
  expect(res.body.message).toContain(field);
}

describe('the event log (GET /api/admin/search/events)', () => {
  it("lists a flag's changes newest first, one Unleash event per action with its type and environment", async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature(project);
    await steps.turn(project, name, 'production', 'on');
    await call({ method: 'POST', path: `/api/admin/projects/${project}/stale`, token, body: { features: [name], stale: true } });

    const res = await search({ feature: `IS:${name}`, from: `IS:${today()}`, to: `IS:${today()}` });

    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(4);
    expect(res.body.events.map((e: { type: string; environment: string | null }) => [e.type, e.environment])).toEqual([
      ['feature-stale-on', null],
      ['feature-environment-enabled', 'production'],
      ['feature-strategy-update', 'production'],
      ['feature-created', null],
    ]);
    const created = res.body.events.at(-1);
    expect(created).toMatchObject({ featureName: name, project, createdByUserId: null, data: null, preData: null, tags: [] });
    expect(created.summary).toContain(name);
    expect(created.label).toBe('Flag created');
  });

  it("answers the flag page's timeline query: enabled and disabled in one environment", async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature(project);
    await steps.turn(project, name, 'development', 'on');
    await steps.turn(project, name, 'production', 'on');
    await steps.turn(project, name, 'production', 'off');

    const res = await search({
      feature: `IS:${name}`, project: `IS:${project}`, type: 'IS_ANY_OF:feature-environment-enabled,feature-environment-disabled',
      environment: 'IS:production', limit: '100',
    });

    expect(res.body.events.map((e: { type: string }) => e.type)).toEqual(['feature-environment-disabled', 'feature-environment-enabled']);
    expect(res.body.total).toBe(2);
  });

  it("reads one flag's log with one Query of its own partition of the index, whatever else happened", async () => {
    const name = await steps.createFeature();
    await steps.createFeature();
    await search({ feature: `IS:${name}` });
    const before = services.dynamoRequests.snapshot();

    const res = await search({ feature: `IS:${name}` });

    expect(res.body.total).toBe(1);
    expect(countsSince(before, services.dynamoRequests.snapshot()).byOperation).toEqual({ Query: 1 });
  });

  it('searches a time window by project, creator, text and id, and pages it with total counting every match', async () => {
    const project = await steps.createProject();
    const names = [await steps.createFeature(project), await steps.createFeature(project), await steps.createFeature(project)];
    const window = { project: `IS:${project}`, from: `IS:${today()}`, to: `IS:${today()}` };

    const all = await search({ ...window, type: 'IS:feature-created' });
    const page = await search({ ...window, type: 'IS:feature-created', offset: '1', limit: '1' });
    const text = await search({ ...window, query: names[1]!.toUpperCase() });
    const byId = await search({ ...window, id: `IS:${all.body.events[0].id}` });
    const byCreator = await search({ ...window, createdBy: `IS:${all.body.events[0].createdBy}`, type: 'IS:feature-created' });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const past = await search({ project: `IS:${project}`, from: `IS:${yesterday}`, to: `IS:${yesterday}` });

    expect(all.body.events.map((e: { featureName: string }) => e.featureName)).toEqual([...names].reverse());
    expect(page.body).toMatchObject({ total: 3, events: [{ featureName: names[1] }] });
    expect(text.body.events.map((e: { featureName: string }) => e.featureName)).toEqual([names[1]]);
    expect(byId.body.events).toEqual([all.body.events[0]]);
    expect(byCreator.body.total).toBe(3);
    expect(past.body).toEqual({ events: [], total: 0 });
  });

  it("lists other resources' events under their own types (a project's creation)", async () => {
    const project = await steps.createProject();

    const res = await search({ project: `IS:${project}`, type: 'IS:project-created' });

    expect(res.body.total).toBe(1);
    expect(res.body.events[0]).toMatchObject({ type: 'project-created', project, featureName: null, environment: null });
  });

  it('refuses malformed filters with a 400 naming the parameter', async () => {
    expectBadRequest(await search({ from: 'IS:2026-02-30' }), 'from');
    expectBadRequest(await search({ to: '2026-01-01' }), 'to');
    expectBadRequest(await search({ feature: 'my-flag' }), 'feature');
    expectBadRequest(await search({ feature: `IS_ANY_OF:${Array.from({ length: 101 }, (_, i) => `f${i}`).join(',')}` }), 'feature');
    expectBadRequest(await search({ type: 'IS_NOT:feature-created' }), 'type');
    expectBadRequest(await search({ limit: '1001' }), 'limit');
    expectBadRequest(await search({ offset: '-1' }), 'offset');
  });
});

describe("a feature's events (GET /api/admin/events/{featureName}, deprecated)", () => {
  it("answers Unleash's featureEventsSchema, newest first, and an empty list for a name no feature had", async () => {
    const name = await steps.createFeature();
    await steps.turn('default', name, 'development', 'on');

    const res = await call({ method: 'GET', path: `/api/admin/events/${name}`, token });
    const none = await call({ method: 'GET', path: `/api/admin/events/${unique('never')}`, token });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 1, toggleName: name, totalEvents: 3 });
    expect(res.body.events.map((e: { type: string }) => e.type)).toContain('feature-environment-enabled');
    expect(res.body.events.at(-1).type).toBe('feature-created');
    expect(none.body).toMatchObject({ events: [], totalEvents: 0 });
  });
});

describe('event creators (GET /api/admin/event-creators)', () => {
  it('answers an empty list: events name their creator, not a user id', async () => {
    const res = await call({ method: 'GET', path: '/api/admin/event-creators', token });

    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});
