import { beforeAll, describe, expect, it } from 'vitest';
import { errorSchema } from '../../lib/http/schemas.js';
import type { Services } from '../../local/app-services.js';
import { apiClient, type ApiResponse } from '../support/api.js';
import { isolatedServices, sdkToken } from '../support/client.js';
import { environment, featureSteps } from '../support/features.js';
import { adminToken, unique } from '../support/services.js';

/** POST /api/admin/projects/{projectId}/features/{featureName}/clone, as the admin UI's Clone button calls it. */
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;
let steps: ReturnType<typeof featureSteps>;

beforeAll(async () => {
  // A table of its own: the SDK poll below reads whole snapshots, which other files' features would swell.
  services = await isolatedServices();
  call = apiClient(services);
  token = await adminToken(services);
  steps = featureSteps(call, token);
});

const clone = (project: string, source: string, body: Record<string, unknown>) =>
  call({ method: 'POST', path: `${steps.base(project, source)}/clone`, token, body });
const rollout = (groupId: string) => ({ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId } });
/** A refusal in the spec's Error shape (id, name, message), with its status. */
const refusal = (res: ApiResponse) => ({ status: res.status, ...errorSchema.parse(res.body) });

describe('cloning a feature', () => {
  it("answers 201 with the new feature as its GET answers it: the source's metadata, strategies and variants, off in every environment", async () => {
    const segment = await call({ method: 'POST', path: '/api/admin/segments', token, body: { name: unique('seg'), constraints: [] } });
    const source = await steps.createFeature('default', unique('source'), { type: 'experiment', description: 'checkout test', impressionData: true, tags: [{ type: 'simple', value: 'checkout' }] });
    const added = await steps.addStrategy('default', source, 'development', {
      ...rollout(source), title: 'half', constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }],
      segments: [segment.body.id], variants: [{ name: 'a', weight: 1000, weightType: 'variable', stickiness: 'default' }],
    });
    await steps.putVariants('default', source, 'production', [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }]);
    await steps.turn('default', source, 'development', 'on');
    await call({ method: 'POST', path: '/api/admin/projects/default/stale', token, body: { features: [source], stale: true } });
    const name = unique('copy');

    const res = await clone('default', source, { name });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name, project: 'default', type: 'experiment', description: 'checkout test', impressionData: true,
      stale: true, archived: false, enabled: false, tags: [], dependencies: [], children: [],
    });
    const development = environment(res.body, 'development');
    expect(development.enabled).toBe(false);
    expect(development.strategies).toEqual([expect.objectContaining({
      name: 'flexibleRollout', title: 'half', featureName: name, segments: [segment.body.id],
      constraints: [expect.objectContaining({ contextName: 'userId', operator: 'IN', values: ['alice'] })],
      parameters: { rollout: '50', stickiness: 'default', groupId: name },
      variants: [expect.objectContaining({ name: 'a', weight: 1000 })],
    })]);
    expect(development.strategies[0].id).not.toBe(added.body.id);
    expect(environment(res.body, 'production')).toMatchObject({ enabled: false, variants: [expect.objectContaining({ name: 'blue' })] });
    expect((await steps.getFeature('default', name)).body).toEqual(res.body);
    // The source is left as it was.
    expect(environment((await steps.getFeature('default', source)).body, 'development')).toMatchObject({ enabled: true, strategies: [expect.objectContaining({ id: added.body.id, parameters: expect.objectContaining({ groupId: source }) })] });
  });

  it('keeps the strategies’ groupId when replaceGroupId is false', async () => {
    const source = await steps.createFeature();
    await steps.addStrategy('default', source, 'development', rollout('shared-bucket'));
    const name = unique('copy');

    const res = await clone('default', source, { name, replaceGroupId: false });

    expect(res.status).toBe(201);
    expect(environment(res.body, 'development').strategies[0].parameters.groupId).toBe('shared-bucket');
  });

  it("depends on the source's parent, which lists the clone among its children", async () => {
    const parent = await steps.createFeature();
    const source = await steps.createFeature();
    await call({ method: 'POST', path: `${steps.base('default', source)}/dependencies`, token, body: { feature: parent, enabled: false } });
    const name = unique('copy');

    const res = await clone('default', source, { name });

    expect(res.body.dependencies).toEqual([{ feature: parent, enabled: false, variants: [] }]);
    expect((await steps.getFeature('default', parent)).body.children).toEqual([source, name].sort());
  });

  it('records a created change naming the caller, moves the SDK revision, and the next SDK poll serves the clone, off', async () => {
    const source = await steps.createFeature();
    await steps.addStrategy('default', source, 'development', rollout(source));
    await steps.turn('default', source, 'development', 'on');
    const sdk = await sdkToken(services);
    const tokenName = (await services.apiTokens.authenticate(token)).caller.tokenName;
    const revision = await services.revisions.current();
    const from = new Date(Date.now() - 1000);
    const name = unique('copy');

    await clone('default', source, { name });

    const events = (await services.events.between(from, new Date(Date.now() + 1000))).filter((e) => e.featureName === name);
    expect(events).toEqual([expect.objectContaining({ type: 'feature-changed', changes: ['created'], createdBy: tokenName, project: 'default' })]);
    expect(await services.revisions.current()).toBeGreaterThan(revision);
    const poll = await call({ method: 'GET', path: `/api/client/features?namePrefix=${name}`, token: sdk });
    expect(poll.body.features).toEqual([expect.objectContaining({
      name, enabled: false, strategies: [expect.objectContaining({ parameters: expect.objectContaining({ groupId: name }) })],
    })]);
  });
});

describe('what a clone refuses', () => {
  it('answers 409 NameExistsError for a name taken by an active or an archived feature', async () => {
    const source = await steps.createFeature();
    const archived = await steps.createFeature();
    await call({ method: 'POST', path: '/api/admin/projects/default/archive', token, body: { features: [archived] } });

    expect(refusal(await clone('default', source, { name: source }))).toMatchObject({ status: 409, name: 'NameExistsError', message: 'A flag with that name already exists' });
    expect(refusal(await clone('default', source, { name: archived }))).toMatchObject({ status: 409, message: 'An archived flag with that name already exists' });
  });

  it('answers 404 for a source that does not exist, is archived or belongs to another project, and creates nothing', async () => {
    const project = await steps.createProject();
    const elsewhere = await steps.createFeature(project);
    const archived = await steps.createFeature();
    await call({ method: 'POST', path: '/api/admin/projects/default/archive', token, body: { features: [archived] } });
    const names = [unique('copy'), unique('copy'), unique('copy')];

    const answers = [
      await clone('default', unique('missing'), { name: names[0] }),
      await clone('default', archived, { name: names[1] }),
      await clone('default', elsewhere, { name: names[2] }),
    ];

    expect(answers.map(refusal)).toEqual(answers.map(() => expect.objectContaining({ status: 404, name: 'NotFoundError' })));
    for (const name of names) expect((await call({ method: 'POST', path: '/api/admin/features/validate', token, body: { name } })).status).toBe(200);
  });

  it("answers 400 for a name that is not URL-friendly, breaks the project's naming pattern, or passes its feature limit", async () => {
    const named = await steps.createProject({ featureNaming: { pattern: 'team-[a-z]+', example: 'team-search' } });
    const limited = await steps.createProject({ featureLimit: 1 });
    const inNamed = await steps.createFeature(named, `team-${unique('x').replace(/[^a-z]/g, '')}`);
    const inLimited = await steps.createFeature(limited);

    const answers = [
      await clone('default', await steps.createFeature(), { name: 'a b' }),
      await clone(named, inNamed, { name: unique('off-pattern') }),
      await clone(limited, inLimited, { name: unique('copy') }),
    ];

    expect(answers.map(refusal)).toEqual(answers.map(() => expect.objectContaining({ status: 400, name: 'ValidationError' })));
    expect(answers[0]?.body.message).toMatch(/^name:/);
    expect(answers[1]?.body.message).toContain('team-[a-z]+');
    expect(answers[2]?.body.message).toContain('maximum number of feature toggles');
  });
});
