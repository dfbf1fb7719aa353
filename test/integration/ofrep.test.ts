import { beforeAll, describe, expect, it } from 'vitest';
import type { Constraint, FeatureStrategy, StrategyVariant } from '../../lib/features/model.js';
import { ofrep } from '../../lib/composition/slices/ofrep.js';
import { EvaluationCounter, OFREP_USAGE_APPS, OFREP_USAGE_INTERVAL_MS } from '../../lib/ofrep/usage.js';
import type { MetricsReport } from '../../lib/client/metrics-service.js';
import type { Caller } from '../../lib/http/caller.js';
import { countsSince } from '../../lib/store/request-counter.js';
import type { Services } from '../../local/app-services.js';
import { apiClient, type ApiResponse } from '../support/api.js';
import { isolatedServices, putFeature, rollout, sdkToken } from '../support/client.js';
import { captureLogs } from '../support/logs.js';
import { adminToken, testServices, unique } from '../support/services.js';

// OFREP (issue 27) over the frontend function's handlers, on a table of its own: the bulk ETag
// names the revision, which other files would move at any moment on the shared table.
let services: Services;
let call: ReturnType<typeof apiClient>;
let admin: string;
const tokens = { frontend: '', client: '', otherProject: '', production: '' };
const project = unique('ofrep');
const otherProject = unique('other');
const flags = {
  on: `${project}-on`, off: `${project}-off`, forAlice: `${project}-for-alice`, text: `${project}-text`,
  json: `${project}-json`, number: `${project}-number`, named: `${project}-named`, split: `${project}-split`,
  byAddress: `${project}-by-address`, half: `${project}-half`, byTier: `${project}-by-tier`, byTime: `${otherProject}-by-time`, noStrategy: `${project}-no-strategy`,
  elsewhere: `${otherProject}-flag`,
};

const constraint = (contextName: string, operator: Constraint['operator'], values: string[], value?: string): Constraint =>
  ({ contextName, operator, values, ...(value === undefined ? {} : { value }), caseInsensitive: false, inverted: false });
const variant = (name: string, payload?: StrategyVariant['payload'], weight = 1000): StrategyVariant =>
  ({ name, weight, weightType: 'variable', stickiness: 'default', ...(payload ? { payload } : {}) });
const inDevelopment = (strategies: FeatureStrategy[], enabled = true) => ({ development: { enabled, strategies, variants: [] } });

beforeAll(async () => {
  services = await isolatedServices({ REVISION_CHECK_INTERVAL_MS: '0' });
  call = apiClient(services);
  admin = await adminToken(services);
  for (const id of [project, otherProject]) {
    expect((await call({ method: 'POST', path: '/api/admin/projects', token: admin, body: { id, name: id } })).status).toBeLessThan(300);
  }
  const inProject = { project };
  await putFeature(services, { ...inProject, name: flags.on, impressionData: true, environments: inDevelopment([rollout()]) });
  await putFeature(services, { ...inProject, name: flags.off, environments: inDevelopment([rollout()], false) });
  await putFeature(services, { ...inProject, name: flags.forAlice, environments: inDevelopment([rollout({ constraints: [constraint('userId', 'IN', ['alice'])] })]) });
  await putFeature(services, { ...inProject, name: flags.text, environments: inDevelopment([rollout({ variants: [variant('blue', { type: 'string', value: 'sky' })] })]) });
  await putFeature(services, { ...inProject, name: flags.json, environments: inDevelopment([rollout({ variants: [variant('config', { type: 'json', value: '{"limit":3,"tags":["a"]}' })] })]) });
  await putFeature(services, { ...inProject, name: flags.number, environments: inDevelopment([rollout({ variants: [variant('answer', { type: 'number', value: '42.5' })] })]) });
  await putFeature(services, { ...inProject, name: flags.named, environments: inDevelopment([rollout({ variants: [variant('plain')] })]) });
  await putFeature(services, {
    ...inProject, name: flags.split,
    environments: inDevelopment([rollout({ variants: [variant('a', { type: 'string', value: 'A' }, 500), variant('b', { type: 'string', value: 'B' }, 500)] })]),
  });
  await putFeature(services, { ...inProject, name: flags.half, environments: inDevelopment([rollout({ parameters: { rollout: '50', stickiness: 'default', groupId: 'half' } })]) });
  await putFeature(services, { ...inProject, name: flags.byAddress, environments: inDevelopment([rollout({ name: 'remoteAddress', parameters: { IPs: '127.0.0.1' } })]) });
  await putFeature(services, {
    ...inProject, name: flags.byTier,
    environments: inDevelopment([rollout({ constraints: [constraint('tier', 'IN', ['3']), constraint('beta', 'IN', ['true'])] })]),
  });
  // In the other project: a date constraint makes its scope's bulk ETag name the minute.
  await putFeature(services, { project: otherProject, name: flags.byTime, environments: inDevelopment([rollout({ constraints: [constraint('currentTime', 'DATE_AFTER', [], '2030-01-01T00:00:00.000Z')] })]) });
  await putFeature(services, { ...inProject, name: flags.noStrategy, environments: inDevelopment([]) });
  await putFeature(services, { project: otherProject, name: flags.elsewhere, environments: inDevelopment([rollout()]) });
  tokens.frontend = await sdkToken(services, { type: 'frontend', projects: [project] });
  tokens.client = await sdkToken(services, { type: 'client', projects: [project] });
  tokens.otherProject = await sdkToken(services, { type: 'client', projects: [otherProject] });
  tokens.production = await sdkToken(services, { type: 'client', projects: [project], environment: 'production' });
});

const evaluate = (flag: string, context: unknown = {}, options: { token?: string | null; headers?: Record<string, string> } = {}) => call({
  method: 'POST', path: `/ofrep/v1/evaluate/flags/${encodeURIComponent(flag)}`, body: { context },
  ...(options.token === null ? {} : { token: options.token ?? tokens.client }), headers: options.headers ?? {},
});
const evaluateAll = (context: unknown = {}, headers: Record<string, string> = {}, token = tokens.frontend) =>
  call({ method: 'POST', path: '/ofrep/v1/evaluate/flags', token, body: { context }, headers });
const byKey = (res: ApiResponse) => Object.fromEntries((res.body.flags as Array<{ key: string }>).map((flag) => [flag.key, flag]));

describe('POST /ofrep/v1/evaluate/flags/{key}: the mapping from an Unleash flag', () => {
  it('answers an enabled flag on for everyone as true, STATIC, with the project, type and impression data as metadata', async () => {
    const res = await evaluate(flags.on, { targetingKey: 'alice' });

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ key: flags.on, value: true, reason: 'STATIC', variant: 'disabled', metadata: { project, featureType: 'release', impressionData: true } });
  });

  it('answers a flag off in the environment as false with DISABLED, and one on for nobody in this context as false with DEFAULT', async () => {
    expect((await evaluate(flags.off, { targetingKey: 'alice' })).body).toMatchObject({ key: flags.off, value: false, reason: 'DISABLED' });
    expect((await evaluate(flags.forAlice, { targetingKey: 'bob' })).body).toMatchObject({ value: false, reason: 'DEFAULT' });
  });

  it('reads targetingKey as the userId: a constraint on the user matches, TARGETING_MATCH', async () => {
    const res = await evaluate(flags.forAlice, { targetingKey: 'alice' });

    expect(res.body).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
  });

  it('answers the variant\'s payload typed by its type, and the variant\'s name', async () => {
    const text = await evaluate(flags.text, { targetingKey: 'alice' });
    const json = await evaluate(flags.json, { targetingKey: 'alice' });
    const number = await evaluate(flags.number, { targetingKey: 'alice' });

    expect(text.body).toMatchObject({ value: 'sky', variant: 'blue', reason: 'STATIC', metadata: { payloadType: 'string' } });
    expect(json.body).toMatchObject({ value: { limit: 3, tags: ['a'] }, variant: 'config', metadata: { payloadType: 'json' } });
    expect(number.body).toMatchObject({ value: 42.5, variant: 'answer', metadata: { payloadType: 'number' } });
  });

  it('answers true for a variant without a payload and for an enabled flag with no strategy, the variant named as Unleash names it', async () => {
    expect((await evaluate(flags.named, { targetingKey: 'alice' })).body).toMatchObject({ value: true, variant: 'plain', reason: 'STATIC' });
    // Unleash's getVariant answers `disabled` for a flag without variants, on or off.
    expect((await evaluate(flags.noStrategy)).body).toMatchObject({ value: true, reason: 'STATIC', variant: 'disabled' });
    expect((await evaluate(flags.off)).body).toMatchObject({ value: false, variant: 'disabled' });
  });

  it('tells a variant drawn by weight among several apart: SPLIT', async () => {
    const res = await evaluate(flags.split, { targetingKey: 'alice' });

    expect(res.body.reason).toBe('SPLIT');
    expect(['A', 'B']).toContain(res.body.value);
  });

  it('tells a percentage rollout below 100 apart: SPLIT for the users it lets in, DEFAULT for the others', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => evaluate(flags.half, { targetingKey: `user-${index}` })));

    const reasons = new Set(answers.map((res) => `${res.body.value} ${res.body.reason}`));
    expect([...reasons].sort()).toEqual(['false DEFAULT', 'true SPLIT']);
  });

  it('maps every other attribute to a property, numbers and booleans as their text', async () => {
    expect((await evaluate(flags.byTier, { targetingKey: 'alice', tier: 3, beta: true })).body).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect((await evaluate(flags.byTier, { targetingKey: 'alice', tier: 3, beta: false })).body).toMatchObject({ value: false });
  });

  it('reads currentTime by name, so date constraints are evaluated at the time the caller names', async () => {
    const other = { token: tokens.otherProject };
    expect((await evaluate(flags.byTime, { currentTime: '2031-06-01T00:00:00Z' }, other)).body).toMatchObject({ value: true });
    expect((await evaluate(flags.byTime, { currentTime: '2029-06-01T00:00:00Z' }, other)).body).toMatchObject({ value: false });
  });

  it('takes remoteAddress from the caller when the context leaves it out, and the context\'s when it gives one', async () => {
    expect((await evaluate(flags.byAddress)).body).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect((await evaluate(flags.byAddress, { remoteAddress: '10.0.0.9' })).body).toMatchObject({ value: false });
  });

  it('evaluates in the token\'s environment whatever the context names', async () => {
    const asked = await evaluate(flags.on, { environment: 'development' }, { token: tokens.production });

    // The flag has no production state: off there.
    expect(asked.body).toMatchObject({ value: false, reason: 'DISABLED' });
  });
});

describe('POST /ofrep/v1/evaluate/flags/{key}: refusals as the protocol shapes them', () => {
  it('answers a flag nobody knows, and one of another project, 404 FLAG_NOT_FOUND with the key', async () => {
    for (const res of [await evaluate(unique('missing')), await evaluate(flags.elsewhere)]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ key: expect.any(String), errorCode: 'FLAG_NOT_FOUND', errorDetails: expect.stringContaining('was not found') });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('answers an object or array attribute, or a targetingKey that is not text, 400 INVALID_CONTEXT naming it', async () => {
    const object = await evaluate(flags.on, { targetingKey: 'alice', address: { city: 'Oslo' } });
    const array = await evaluate(flags.on, { targetingKey: 'alice', groups: ['a'] });
    const numericKey = await evaluate(flags.on, { targetingKey: 42 });

    expect(object.status).toBe(400);
    expect(object.body).toEqual({ key: flags.on, errorCode: 'INVALID_CONTEXT', errorDetails: expect.stringContaining('"address"') });
    expect(array.body).toMatchObject({ errorCode: 'INVALID_CONTEXT', errorDetails: expect.stringContaining('"groups"') });
    expect(numericKey.body).toMatchObject({ errorCode: 'INVALID_CONTEXT', errorDetails: expect.stringContaining('targetingKey') });
  });

  it('answers an empty targetingKey 400 TARGETING_KEY_MISSING, and no targetingKey at all as an anonymous context', async () => {
    const empty = await evaluate(flags.on, { targetingKey: '' });

    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ key: flags.on, errorCode: 'TARGETING_KEY_MISSING' });
    expect((await evaluate(flags.on, {})).body).toMatchObject({ value: true });
  });

  it('answers a body that is not JSON, or not an object, 400 PARSE_ERROR', async () => {
    const notJson = await call({ method: 'POST', path: `/ofrep/v1/evaluate/flags/${flags.on}`, token: tokens.client, rawBody: '{"context":', headers: { 'Content-Type': 'application/json' } });
    const notObject = await call({ method: 'POST', path: `/ofrep/v1/evaluate/flags/${flags.on}`, token: tokens.client, body: ['context'] });

    for (const res of [notJson, notObject]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ key: flags.on, errorCode: 'PARSE_ERROR', errorDetails: expect.any(String) });
    }
  });

  it('answers a context too large 400 INVALID_CONTEXT', async () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, 'x']));

    expect((await evaluate(flags.on, many)).body).toMatchObject({ errorCode: 'INVALID_CONTEXT' });
  });
});

describe('POST /ofrep/v1/evaluate/flags/{key} with a frontend token: nothing of the flags off for the caller', () => {
  it('answers a flag off in the environment, or on for nobody in this context, 404 FLAG_NOT_FOUND as a flag nobody knows', async () => {
    const unknown = `${project}-nobody-knows`;
    const answers = await Promise.all([flags.off, flags.forAlice, unknown].map(async (flag) => [flag, await evaluate(flag, { targetingKey: 'bob' }, { token: tokens.frontend })] as const));

    for (const [flag, res] of answers) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ key: flag, errorCode: 'FLAG_NOT_FOUND', errorDetails: `Flag '${flag}' was not found.` });
    }
  });

  it('answers a flag on for the caller with impressionData as the only metadata of the flag, where a client token gets its project and type', async () => {
    const frontend = await evaluate(flags.forAlice, { targetingKey: 'alice' }, { token: tokens.frontend });
    const client = await evaluate(flags.forAlice, { targetingKey: 'alice' }, { token: tokens.client });

    expect(frontend.body).toEqual({ key: flags.forAlice, value: true, reason: 'TARGETING_MATCH', variant: 'disabled', metadata: { impressionData: false } });
    expect(client.body.metadata).toEqual({ project, featureType: 'release', impressionData: false });
  });
});

describe('who may evaluate', () => {
  it('takes a client or a frontend token in Authorization (raw or Bearer) or X-API-Key', async () => {
    const answers = await Promise.all([
      evaluate(flags.on, {}, { token: tokens.client }),
      evaluate(flags.on, {}, { token: `Bearer ${tokens.frontend}` }),
      evaluate(flags.on, {}, { token: null, headers: { 'X-API-Key': tokens.client } }),
      evaluate(flags.on, {}, { token: null, headers: { 'X-API-Key': tokens.frontend } }),
    ]);

    expect(answers.map((res) => [res.status, res.body.value])).toEqual([[200, true], [200, true], [200, true], [200, true]]);
  });

  it('refuses an admin token 403 and no token or an unknown one 401, without a body', async () => {
    const refused = [
      [await evaluate(flags.on, {}, { token: admin }), 403],
      [await evaluate(flags.on, {}, { token: null }), 401],
      [await evaluate(flags.on, {}, { token: null, headers: { 'X-API-Key': `${project}:development.not-a-token` } }), 401],
      [await evaluateAll({}, {}, admin), 403],
    ] as const;

    for (const [res, status] of refused) {
      expect(res.status).toBe(status);
      expect(res.text).toBe('');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });
});

describe('POST /ofrep/v1/evaluate/flags (bulk)', () => {
  it('evaluates every flag of a client token\'s scope for the context, off ones as DISABLED or DEFAULT, nothing of other projects', async () => {
    const res = await evaluateAll({ targetingKey: 'alice' }, {}, tokens.client);

    expect(res.status).toBe(200);
    const answers = byKey(res);
    expect(Object.keys(answers).sort()).toEqual(Object.values(flags).filter((flag) => !flag.startsWith(otherProject)).sort());
    expect(answers[flags.on]).toMatchObject({ value: true, reason: 'STATIC' });
    expect(answers[flags.off]).toMatchObject({ value: false, reason: 'DISABLED' });
    expect(answers[flags.forAlice]).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect(answers[flags.text]).toMatchObject({ value: 'sky', variant: 'blue' });
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers a frontend token only the flags on for the caller, with impressionData as the only metadata of the flag', async () => {
    const forBob = await evaluateAll({ targetingKey: 'bob' });
    const forAlice = await evaluateAll({ targetingKey: 'alice' });

    expect(forBob.status).toBe(200);
    const answers = byKey(forBob);
    // Off in the environment, on for nobody in this context, or left out by the 50 % rollout: not listed at all.
    for (const hidden of [flags.off, flags.forAlice, flags.byTier]) expect(answers).not.toHaveProperty(hidden);
    for (const answer of Object.values(answers)) expect(answer).toMatchObject({ value: expect.anything(), reason: expect.not.stringMatching(/^(DISABLED|DEFAULT)$/) });
    expect(answers[flags.on]).toEqual({ key: flags.on, value: true, reason: 'STATIC', variant: 'disabled', metadata: { impressionData: true } });
    expect(answers[flags.text]).toEqual({ key: flags.text, value: 'sky', reason: 'STATIC', variant: 'blue', metadata: { impressionData: false, payloadType: 'string' } });
    expect(byKey(forAlice)[flags.forAlice]).toEqual({ key: flags.forAlice, value: true, reason: 'TARGETING_MATCH', variant: 'disabled', metadata: { impressionData: false } });
    expect(byKey(forAlice)).not.toHaveProperty(flags.off);
  });

  it('answers 304 to the same context and data, 200 with another ETag when the context changes in any attribute', async () => {
    const first = await evaluateAll({ targetingKey: 'alice', plan: 'free' });
    const etag = first.headers.etag as string;

    const same = await evaluateAll({ plan: 'free', targetingKey: 'alice' }, { 'If-None-Match': etag });
    const otherAttribute = await evaluateAll({ targetingKey: 'alice', plan: 'pro' }, { 'If-None-Match': etag });
    const otherUser = await evaluateAll({ targetingKey: 'bob', plan: 'free' }, { 'If-None-Match': etag });

    expect(same.status).toBe(304);
    expect(same.text).toBe('');
    expect(same.headers.etag).toBe(etag);
    expect(otherAttribute.status).toBe(200);
    expect(otherUser.status).toBe(200);
    expect(new Set([etag, otherAttribute.headers.etag, otherUser.headers.etag]).size).toBe(3);
  });

  it('answers 200 with the change and a new ETag once a flag changes, for the same context', async () => {
    const first = await evaluateAll({ targetingKey: 'carol' });
    const flag = `${project}-changing`;
    await putFeature(services, { project, name: flag, environments: inDevelopment([rollout()]) });

    const after = await evaluateAll({ targetingKey: 'carol' }, { 'If-None-Match': first.headers.etag as string });

    expect(after.status).toBe(200);
    expect(byKey(after)[flag]).toMatchObject({ value: true });
    expect(after.headers.etag).not.toBe(first.headers.etag);
    await putFeature(services, { project, name: flag, archived: true, archivedAt: new Date().toISOString() });
  });

  it('names the minute in the ETag of a scope whose answers depend on the clock (a date constraint): a new minute is evaluated again', async () => {
    let now = new Date('2030-01-01T10:00:10.000Z');
    const clocked = apiClient(testServices({ TABLE_NAME: services.config.tableName, REVISION_CHECK_INTERVAL_MS: '0' }, { now: () => now }));
    const bulk = (etag?: string) => clocked({
      method: 'POST', path: '/ofrep/v1/evaluate/flags', token: tokens.otherProject, body: { context: { targetingKey: 'alice' } },
      headers: etag ? { 'If-None-Match': etag } : {},
    });
    const first = await bulk();

    now = new Date('2030-01-01T10:00:50.000Z');
    const sameMinute = await bulk(first.headers.etag);
    now = new Date('2030-01-01T10:01:00.000Z');
    const nextMinute = await bulk(first.headers.etag);

    expect(sameMinute.status).toBe(304);
    expect(nextMinute.status).toBe(200);
    expect(nextMinute.headers.etag).not.toBe(first.headers.etag);
  });

  it('answers a bad context 400 INVALID_CONTEXT without a key', async () => {
    const res = await evaluateAll({ targetingKey: 'alice', address: { city: 'Oslo' } });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errorCode: 'INVALID_CONTEXT', errorDetails: expect.stringContaining('"address"') });
  });
});

describe('what an evaluation costs and counts', () => {
  const requestsOf = async (on: Services, work: () => Promise<unknown>) => {
    const before = on.dynamoRequests.snapshot();
    await work();
    return countsSince(before, on.dynamoRequests.snapshot());
  };

  it('reads nothing but the revision, single or bulk, 304 included: nothing at all within the revision-check interval', async () => {
    // A second process on the same table that checks the revision once a minute (the first
    // request reads it, and the token, the payload and the origins once).
    const warmServices = testServices({ TABLE_NAME: services.config.tableName, REVISION_CHECK_INTERVAL_MS: '60000' });
    const warmCall = apiClient(warmServices);
    const bulkOn = (headers: Record<string, string> = {}) => warmCall({ method: 'POST', path: '/ofrep/v1/evaluate/flags', token: tokens.frontend, body: { context: { targetingKey: 'dave' } }, headers });
    const singleOn = () => warmCall({ method: 'POST', path: `/ofrep/v1/evaluate/flags/${flags.on}`, token: tokens.client, body: { context: { targetingKey: 'erin' } } });
    const warm = await bulkOn();
    await singleOn();

    const single = await requestsOf(warmServices, singleOn);
    const bulk = await requestsOf(warmServices, () => bulkOn());
    const notModified = await requestsOf(warmServices, () => bulkOn({ 'If-None-Match': warm.headers.etag as string }));

    for (const counted of [single, bulk, notModified]) expect(counted).toEqual({ total: 0, byOperation: {} });
    // Checking on every request (this file's process, warm), the checks are the revision's Queries only.
    await evaluateAll({ targetingKey: 'erin' });
    const checked = await requestsOf(services, () => evaluateAll({ targetingKey: 'erin' }));
    expect(Object.keys(checked.byOperation)).toEqual(['Query']);
  });

  it('counts of a bulk answer only the flags it holds that are on, as yes, for a client token and a frontend token alike', async () => {
    const counts = services.composition.once(ofrep).evaluationCounts;
    const day = new Date().toISOString().slice(0, 10);
    const counted = [flags.on, flags.off, flags.forAlice, flags.text];
    const sumsOf = async () => {
      const hourly = await services.metrics.hourlyCounts(day);
      return counted.map((feature) => hourly.filter((count) => count.feature === feature).reduce((sum, count) => [sum[0]! + count.yes, sum[1]! + count.no], [0, 0]));
    };
    await counts.flush();
    const before = await sumsOf();
    const appName = unique('bulk-app');

    expect((await evaluateAll({ targetingKey: 'bob', appName }, {}, tokens.client)).status).toBe(200);
    expect((await evaluateAll({ targetingKey: 'bob', appName }, {}, tokens.frontend)).status).toBe(200);
    await counts.flush();

    const after = await sumsOf();
    const added = after.map(([yes, no], index) => [yes! - before[index]![0]!, no! - before[index]![1]!]);
    // flags.on and flags.text are on for bob; flags.off is off, flags.forAlice on for nobody but alice.
    expect(added).toEqual([[2, 0], [0, 0], [0, 0], [2, 0]]);
  });

  it('counts each evaluated flag for metrics and last-seen, by the context\'s appName, once the interval\'s counts are sent', async () => {
    const counts = services.composition.once(ofrep).evaluationCounts;
    const day = new Date().toISOString().slice(0, 10);
    const sumsOf = async () => {
      const hourly = await services.metrics.hourlyCounts(day);
      return Object.fromEntries([flags.forAlice, flags.text].map((feature) => [feature, hourly.filter((count) => count.feature === feature)
        .reduce((sum, count) => ({ yes: sum.yes + count.yes, no: sum.no + count.no, apps: [...sum.apps, ...(count.apps ?? [])] }), { yes: 0, no: 0, apps: [] as string[] })]));
    };
    await counts.flush();
    const before = await sumsOf();
    const appName = unique('app');

    await evaluate(flags.forAlice, { targetingKey: 'alice', appName });
    await evaluate(flags.forAlice, { targetingKey: 'bob', appName });
    await evaluate(flags.text, { targetingKey: 'alice', appName });
    await counts.flush();

    const after = await sumsOf();
    expect([after[flags.forAlice]!.yes - before[flags.forAlice]!.yes, after[flags.forAlice]!.no - before[flags.forAlice]!.no]).toEqual([1, 1]);
    expect([after[flags.text]!.yes - before[flags.text]!.yes, after[flags.text]!.no - before[flags.text]!.no]).toEqual([1, 0]);
    expect(after[flags.forAlice]!.apps).toContain(appName);
    const feature = await call({ method: 'GET', path: `/api/admin/projects/${project}/features/${flags.text}`, token: admin });
    const development = feature.body.environments.find((environment: { name: string }) => environment.name === 'development');
    expect(development.lastSeenAt).toEqual(expect.any(String));
  });
});

describe('the evaluation counter', () => {
  const caller: Caller = { tokenName: 'web', type: 'frontend', environment: 'development', projects: ['*'] };
  const outcome = (key: string, enabled: boolean, variant?: string) => ({ evaluation: { key, value: enabled, reason: 'STATIC' as const, variant: variant ?? 'disabled', metadata: {} }, enabled, variant });

  it('sends nothing within the interval, then one report per application with every count, from the request that finds it over', async () => {
    let now = 1_000_000;
    const sent: MetricsReport[] = [];
    const counter = new EvaluationCounter({ recordMetrics: async (_caller, report) => void sent.push(report) }, OFREP_USAGE_INTERVAL_MS, () => now);

    await counter.count(caller, 'shop', [outcome('a', true, 'blue'), outcome('b', false)]);
    now += OFREP_USAGE_INTERVAL_MS - 1;
    await counter.count(caller, 'shop', [outcome('a', true, 'blue')]);
    expect(sent).toEqual([]);
    now += 1;
    await counter.count(caller, undefined, [outcome('a', false)]);

    expect(sent.map((report) => [report.appName, report.bucket?.toggles])).toEqual([
      ['shop', { a: { yes: 2, no: 0, variants: { blue: 2 } }, b: { yes: 0, no: 1, variants: {} } }],
      [undefined, { a: { yes: 0, no: 1, variants: {} } }],
    ]);
    expect(sent[0]!.bucket?.start).toBe(new Date(1_000_000).toISOString());
  });

  it('keeps at most OFREP_USAGE_APPS applications apart, counting the rest without a name', async () => {
    const sent: MetricsReport[] = [];
    const counter = new EvaluationCounter({ recordMetrics: async (_caller, report) => void sent.push(report) });

    for (let app = 0; app <= OFREP_USAGE_APPS; app += 1) await counter.count(caller, `app-${app}`, [outcome('a', true)]);
    await counter.flush();

    expect(sent).toHaveLength(OFREP_USAGE_APPS + 1);
    expect(sent.filter((report) => report.appName === undefined)).toHaveLength(1);
  });

  it('drops a report the metrics path refuses, and answers the evaluation', async () => {
    const counter = new EvaluationCounter({ recordMetrics: async () => { throw new Error('queue down'); } }, 0);
    const logs = captureLogs();

    await expect(counter.count(caller, 'shop', [outcome('a', true)])).resolves.toBeUndefined();
    logs.restore();
    expect(logs.text()).toContain('dropped');
  });
});
