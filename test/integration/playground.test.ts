import { beforeAll, describe, expect, it } from 'vitest';
import { PLAYGROUND_LIMIT } from '../../lib/playground/service.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { adminSession, apiClient } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { adminToken, freshInstanceServices, unique } from '../support/services.js';

const { services, call, token } = adminSession();
/** What a warm container's playground costs: the revision check (and what changed since, if anything did) and the segments. */
const MAX_REQUESTS_OF_A_PLAYGROUND = 3;
let project: string;
let frontendToken: string;
const flags: Record<'forAlice' | 'withVariant' | 'off' | 'child' | 'inSegment', string> = { forAlice: '', withVariant: '', off: '', child: '', inSegment: '' };

/** A project of its own: alice's flag, a flag with a variant, one off, one depending on alice's, one behind a segment. */
beforeAll(async () => {
  const steps = featureSteps(call, token);
  project = await steps.createProject({ environments: ['development', 'production'] });
  for (const key of Object.keys(flags) as Array<keyof typeof flags>) flags[key] = await steps.createFeature(project, `${project}-${key}`);
  const segment = await call({
    method: 'POST', path: '/api/admin/segments', token,
    body: { name: unique('beta'), project, constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] },
  });
  expect(segment.status, segment.text).toBe(201);
  const strategies: Array<[string, Record<string, unknown>]> = [
    [flags.forAlice, { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: flags.forAlice }, constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }] }],
    [flags.withVariant, { name: 'default', parameters: {}, variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'sky' } }] }],
    [flags.off, { name: 'default', parameters: {} }],
    [flags.child, { name: 'default', parameters: {} }],
    [flags.inSegment, { name: 'default', parameters: {}, segments: [segment.body.id] }],
  ];
  for (const [flag, strategy] of strategies) expect((await steps.addStrategy(project, flag, 'development', strategy)).status).toBe(200);
  const parent = await call({ method: 'POST', path: `${steps.base(project, flags.child)}/dependencies`, token, body: { feature: flags.forAlice } });
  expect(parent.status, parent.text).toBeLessThan(300);
  for (const flag of [flags.forAlice, flags.withVariant, flags.child, flags.inSegment]) expect((await steps.turn(project, flag, 'development', 'on')).status).toBe(200);
  const created = await call({ method: 'POST', path: '/api/admin/api-tokens', token, body: { tokenName: unique('web'), type: 'frontend', environment: 'development', project } });
  frontendToken = created.body.secret;
});

const playground = (context: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  call({ method: 'POST', path: '/api/admin/playground', token, body: { environment: 'development', projects: [project], context: { appName: 'web', ...context }, ...extra } });
const byName = (features: Array<{ name: string }>) => Object.fromEntries(features.map((feature) => [feature.name, feature])) as Record<string, any>;

describe('the playground (POST /api/admin/playground)', () => {
  it('answers as the Frontend API does for the same context: the same engine on the same flags', async () => {
    for (const context of [{ userId: 'alice', region: 'eu' }, { userId: 'bob' }, { userId: 'alice', properties: { region: 'us' } }]) {
      const res = await playground(context);
      const frontend = await call({ method: 'POST', path: '/api/frontend', token: frontendToken, body: { context } });

      expect(res.status, res.text).toBe(200);
      const enabled = res.body.features.filter((feature: { isEnabled: boolean }) => feature.isEnabled).map((feature: { name: string }) => feature.name).sort();
      expect(enabled, JSON.stringify(context)).toEqual(frontend.body.toggles.map((toggle: { name: string }) => toggle.name).sort());
    }
  });

  it('explains each strategy: its constraints and segments, one by one, and links to edit it', async () => {
    const alice = byName((await playground({ userId: 'alice', region: 'eu' })).body.features);
    const bob = byName((await playground({ userId: 'bob' })).body.features);

    expect(alice[flags.forAlice]).toMatchObject({
      projectId: project, isEnabled: true, isEnabledInCurrentEnvironment: true, hasUnsatisfiedDependency: false,
      strategies: { result: true, data: [{ name: 'flexibleRollout', disabled: false, result: { enabled: true, evaluationStatus: 'complete' }, constraints: [{ contextName: 'userId', result: true }] }] },
    });
    expect(alice[flags.forAlice].strategies.data[0].links.edit).toMatch(new RegExp(`^/projects/${project}/features/${flags.forAlice}/strategies/edit\\?environmentId=development&strategyId=`));
    expect(bob[flags.forAlice]).toMatchObject({ isEnabled: false, strategies: { result: false, data: [{ result: { enabled: false }, constraints: [{ result: false }] }] } });
    expect(alice[flags.inSegment].strategies.data[0].segments).toMatchObject([{ result: true, constraints: [{ contextName: 'region', result: true }] }]);
    expect(bob[flags.inSegment]).toMatchObject({ isEnabled: false, strategies: { data: [{ segments: [{ result: false }] }] } });
  });

  it("tells a flag off in the environment, a parent's verdict and a strategy variant", async () => {
    const bob = byName((await playground({ userId: 'bob' })).body.features);
    const alice = byName((await playground({ userId: 'alice' })).body.features);

    expect(bob[flags.off]).toMatchObject({ isEnabled: false, isEnabledInCurrentEnvironment: false, strategies: { result: true }, variant: { name: 'disabled', enabled: false } });
    expect(bob[flags.child]).toMatchObject({ isEnabled: false, hasUnsatisfiedDependency: true });
    expect(alice[flags.child]).toMatchObject({ isEnabled: true, hasUnsatisfiedDependency: false });
    expect(bob[flags.withVariant]).toMatchObject({
      isEnabled: true, variant: { name: 'blue', enabled: true, payload: { type: 'string', value: 'sky' }, feature_enabled: true },
      strategies: { data: [{ result: { enabled: true, variant: { name: 'blue' }, variants: [{ name: 'blue' }] } }] },
    });
  });

  it('refuses a request without a context appName, or without an environment, with a 400 naming it', async () => {
    const noAppName = await call({ method: 'POST', path: '/api/admin/playground', token, body: { environment: 'development', context: { userId: 'a' } } });
    const noEnvironment = await call({ method: 'POST', path: '/api/admin/playground', token, body: { context: { appName: 'web' } } });

    expect(noAppName.status).toBe(400);
    expect(noAppName.body.message).toContain('appName');
    expect(noEnvironment.status).toBe(400);
    expect(noEnvironment.body.message).toContain('environment');
  });
});

describe('the advanced playground (POST /api/admin/playground/advanced)', () => {
  const advanced = (body: Record<string, unknown>) => call({ method: 'POST', path: '/api/admin/playground/advanced', token, body });

  it("refuses a request for every project past the limit from the projects' counts, before reading a flag", async () => {
    const values = Array.from({ length: 8000 }, (_, i) => `u${i}`).join(',');
    await advanced({ environments: ['development'], projects: [project], context: { appName: 'web' } });
    const counted = services.dynamoRequests.snapshot();
    await services.projects.activeFeatureCount();
    const before = services.dynamoRequests.snapshot();

    const res = await advanced({ environments: ['development', 'production'], projects: '*', context: { appName: 'web', userId: values } });

    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^context: evaluating \d+ flag/);
    // What reading the projects' counts costs, and nothing more.
    expect(countsSince(before, services.dynamoRequests.snapshot()).byOperation).toEqual(countsSince(counted, before).byOperation);
  });

  it('evaluates every environment and every combination of comma-separated context values, grouped by flag', async () => {
    const res = await advanced({ environments: ['development', 'production'], projects: [project], context: { appName: 'web', userId: 'alice,bob', count: 3 } });

    expect(res.status, res.text).toBe(200);
    expect(res.body.warnings).toEqual({ invalidContextProperties: ['count'] });
    const flag = byName(res.body.features)[flags.forAlice];
    expect(Object.keys(flag.environments).sort()).toEqual(['development', 'production']);
    expect(flag.environments.development.map((e: any) => [e.context.userId, e.isEnabled])).toEqual([['alice', true], ['bob', false]]);
    expect(flag.environments.production.every((e: any) => e.environment === 'production' && !e.isEnabledInCurrentEnvironment)).toBe(true);
  });

  it(`refuses more than ${PLAYGROUND_LIMIT} evaluations, and an empty or malformed environment list, with a 400 naming the field`, async () => {
    const values = Array.from({ length: 60 }, (_, i) => `v${i}`).join(',');
    const tooMany = await advanced({ environments: ['development'], projects: [project], context: { appName: 'web', userId: values, sessionId: values } });
    const none = await advanced({ environments: [], context: { appName: 'web' } });
    const malformed = await advanced({ environments: ['dev elopment'], context: { appName: 'web' } });

    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/^context: evaluating 18000 /);
    expect(none.status).toBe(400);
    expect(none.body.message).toContain('environments');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('environments');
  });

  it(`refuses more than ${PLAYGROUND_LIMIT} contexts with no flag to evaluate, counted from the request before a context is built or a flag read`, async () => {
    const digits = '0,1,2,3,4,5,6,7,8,9';
    // 12 × 12 × 12 × 12 = 20,736 contexts, and 10^7: the projects hold no flag, so the evaluations (contexts × flags) are 0.
    const twelve = Array.from({ length: 12 }, (_, i) => `v${i}`).join(',');
    const justOver = { appName: 'web', a: twelve, b: twelve, c: twelve, d: twelve };
    const tenMillion = Object.fromEntries([['appName', 'web'], ...['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((field) => [field, digits])]);
    const before = services.dynamoRequests.snapshot();

    const over = await advanced({ environments: ['development'], projects: [], context: justOver });
    const huge = await advanced({ environments: ['development'], projects: [unique('empty')], context: tenMillion });

    expect(over.status, over.text).toBe(400);
    expect(over.body).toMatchObject({ name: 'ValidationError', message: `context: its comma-separated values make 20736 contexts, more than the ${PLAYGROUND_LIMIT} allowed; choose fewer values` });
    expect(huge.status, huge.text).toBe(400);
    expect(huge.body.message).toContain(`make 10000000 contexts, more than the ${PLAYGROUND_LIMIT} allowed`);
    // Refused from the request alone: not a flag, segment or revision read, so nothing was built either.
    expect(countsSince(before, services.dynamoRequests.snapshot()).total).toBe(0);
  });

  it(`still evaluates ${PLAYGROUND_LIMIT} contexts when the request has room for them`, async () => {
    const values = Array.from({ length: PLAYGROUND_LIMIT }, (_, i) => `u${i}`).join(',');

    const res = await advanced({ environments: ['development'], projects: [], context: { appName: 'web', userId: values } });

    expect(res.status, res.text).toBe(200);
    expect(res.body.features).toEqual([]);
  });

  it('answers a request naming 1,000 projects from the SDK snapshot, for the projects that exist', async () => {
    const named = [...Array.from({ length: 999 }, (_, i) => unique(`missing-${i}`)), project];

    const res = await advanced({ environments: ['development'], projects: named, context: { appName: 'web', userId: 'alice' } });

    expect(res.status, res.text).toBe(200);
    expect(res.body.features.map((flag: { name: string }) => flag.name).sort()).toEqual(Object.values(flags).sort());
    expect(byName(res.body.features)[flags.forAlice].environments.development[0]).toMatchObject({ isEnabled: true, projectId: project });
  });

  it('costs a bounded number of DynamoDB requests for 1,000 projects, not one per project', async () => {
    // A table of its own: other test files writing to the shared table would move the revision
    // between the two requests, and following their changes is not this request's cost.
    const instance = await freshInstanceServices();
    const own = apiClient(instance);
    const ownToken = await adminToken(instance);
    const steps = featureSteps(own, ownToken);
    const ownProject = await steps.createProject();
    const flag = await steps.createFeature(ownProject);
    const named = [...Array.from({ length: 999 }, (_, i) => unique(`missing-${i}`)), ownProject];
    const request = { method: 'POST', path: '/api/admin/playground/advanced', token: ownToken } as const;
    await own({ ...request, body: { environments: ['development'], projects: named, context: { appName: 'web' } } });
    const before = instance.dynamoRequests.snapshot();

    const res = await own({ ...request, body: { environments: ['development'], projects: named, context: { appName: 'web', userId: 'alice' } } });

    expect(res.status, res.text).toBe(200);
    expect(res.body.features.map((feature: { name: string }) => feature.name)).toEqual([flag]);
    // The revision check of the snapshot and the segments: a handful of requests, not one per project.
    expect(countsSince(before, instance.dynamoRequests.snapshot()).total).toBeLessThanOrEqual(MAX_REQUESTS_OF_A_PLAYGROUND);
  });

  it("reads a few named projects from a warm container's read model, not from their partitions, and still sees the last write", async () => {
    const instance = await freshInstanceServices();
    const own = apiClient(instance);
    const ownToken = await adminToken(instance);
    const steps = featureSteps(own, ownToken);
    const ownProject = await steps.createProject({ environments: ['development'] });
    const flag = await steps.createFeature(ownProject);
    // Ten projects, the most read one by one: from their partitions that is a Query each.
    const named = [...Array.from({ length: 9 }, (_, i) => unique(`missing-${i}`)), ownProject];
    const request = { method: 'POST', path: '/api/admin/playground/advanced', token: ownToken } as const;
    const evaluate = () => own({ ...request, body: { environments: ['development'], projects: named, context: { appName: 'web' } } });
    // Every project's playground reads the read model, which the container then holds.
    expect((await own({ ...request, body: { environments: ['development'], projects: '*', context: { appName: 'web' } } })).status).toBe(200);
    const before = instance.dynamoRequests.snapshot();

    const res = await evaluate();

    expect(res.status, res.text).toBe(200);
    expect(res.body.features.map((feature: { name: string }) => feature.name)).toEqual([flag]);
    expect(countsSince(before, instance.dynamoRequests.snapshot()).total).toBeLessThanOrEqual(MAX_REQUESTS_OF_A_PLAYGROUND);
    expect((await steps.addStrategy(ownProject, flag, 'development', { name: 'default', parameters: {} })).status).toBe(200);
    expect((await steps.turn(ownProject, flag, 'development', 'on')).status).toBe(200);
    const after = (await evaluate()).body.features[0].environments.development[0];
    expect(after).toMatchObject({ name: flag, isEnabled: true, isEnabledInCurrentEnvironment: true, strategies: { result: true } });
  });
});
