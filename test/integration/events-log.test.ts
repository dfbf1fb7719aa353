import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { eventItem } from '../../lib/events/dynamo-store.js';
import { changeEvent } from '../../lib/events/model.js';
import { EVENT_SEARCH_MONTHS } from '../../lib/events/service.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { formatSecret } from '../../lib/tokens/model.js';
import { adminSession, apiClient, type ApiResponse } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { storeAdminToken, testServices, unique } from '../support/services.js';

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

describe('a search by time, on a table of its own (each month one page)', () => {
  const tableName = unique('events-by-time');
  let own: { services: Services; call: ReturnType<typeof apiClient>; token: string };
  beforeAll(async () => {
    await prepareLocalTable({ region: 'local', endpoint: inject('dynamodb').endpoint }, tableName);
    const services = testServices({ TABLE_NAME: tableName });
    await services.firstStart.ensure();
    const token = formatSecret(['*'], '*');
    await storeAdminToken(services, token);
    own = { services, call: apiClient(services), token };
  });
  const ownSearch = (query: Record<string, string>) =>
    own.call({ method: 'GET', path: `/api/admin/search/events?${new URLSearchParams(query).toString()}`, token: own.token });

  it(`reads at most ${EVENT_SEARCH_MONTHS} months whatever the window asks for, year 1 and 1970 included, and finds the events in them`, async () => {
    const ownSteps = featureSteps(own.call, own.token);
    const project = await ownSteps.createProject();
    const names = [await ownSteps.createFeature(project), await ownSteps.createFeature(project)];
    const windows: Array<Record<string, string>> = [{ from: 'IS:0001-01-01' }, { from: 'IS:1970-01-01' }, { from: 'IS:0001-01-01', to: 'IS:9999-12-31' }];
    await ownSearch({}); // the token's first lookup, which later requests find in the cache

    for (const window of windows) {
      const before = own.services.dynamoRequests.snapshot();
      const res = await ownSearch({ ...window, project: `IS:${project}`, type: 'IS:feature-created' });
      const spent = countsSince(before, own.services.dynamoRequests.snapshot());

      expect(res.status, `${JSON.stringify(window)}: ${res.text}`).toBe(200);
      expect(res.body.events.map((e: { featureName: string }) => e.featureName), JSON.stringify(window)).toEqual([...names].reverse());
      expect(res.body.total).toBe(2);
      // One Query a month, never one per month since `from`, and one of the counters of the
      // month still settling (ADR 26).
      expect(spent.byOperation, JSON.stringify(window)).toEqual({ Query: expect.any(Number) });
      expect(spent.total, JSON.stringify(window)).toBeLessThanOrEqual(EVENT_SEARCH_MONTHS + 1);
    }
  });

  it(`finds an event older than ${EVENT_SEARCH_MONTHS} months with a window that ends near it, in as many Queries as the window has months`, async () => {
    const old = changeEvent('project-created', { project: unique('old') }, 'test');
    old.createdAt = '2019-06-15T12:00:00.000Z';
    const { endpoint } = inject('dynamodb');
    const direct = createDocumentClient({ region: 'local', endpoint });
    await direct.send(new TransactWriteCommand({ TransactItems: [eventItem(tableName, old)] }));
    direct.destroy();
    const before = own.services.dynamoRequests.snapshot();

    const near = await ownSearch({ from: 'IS:0001-01-01', to: 'IS:2019-06-30', project: `IS:${old.project}` });
    const spent = countsSince(before, own.services.dynamoRequests.snapshot());
    const sinceYearOne = await ownSearch({ from: 'IS:0001-01-01', project: `IS:${old.project}` });

    expect(near.body.events.map((e: { id: string }) => e.id)).toEqual([old.id]);
    expect(spent.byOperation).toEqual({ Query: EVENT_SEARCH_MONTHS });
    expect(sinceYearOne.body).toEqual({ events: [], total: 0 });
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
  it("lists who made the log's events, each with a number the search's createdBy filter takes", async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature(project);
    const made = await search({ feature: `IS:${name}`, from: `IS:${today()}`, to: `IS:${today()}` });
    const maker = made.body.events.at(-1).createdBy as string;

    const res = await call({ method: 'GET', path: '/api/admin/event-creators', token });

    expect(res.status, res.text).toBe(200);
    const creator = (res.body as Array<{ id: number; name: string }>).find((entry) => entry.name === maker);
    expect(creator, `${maker} in ${res.text}`).toBeDefined();
    expect(Number.isInteger(creator!.id) && creator!.id > 0).toBe(true);
    const names = (res.body as Array<{ name: string }>).map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);

    const byNumber = await search({ feature: `IS:${name}`, createdBy: `IS:${creator!.id}`, from: `IS:${today()}`, to: `IS:${today()}` });
    expect(byNumber.body.total).toBe(made.body.total);
    const byOther = await search({ feature: `IS:${name}`, createdBy: `IS:${creator!.id + 1}`, from: `IS:${today()}`, to: `IS:${today()}` });
    expect(byOther.body.total).toBe(0);
  });
});
