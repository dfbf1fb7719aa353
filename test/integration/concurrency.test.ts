import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Feature } from '../../lib/features/model.js';
import type { AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { adminSession, apiClient, resendWhileUnavailable, type ApiRequest, type ApiResponse } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { faultyEngine, LOW_FAULTS } from '../support/gated-engine.js';
import { testServices, unique } from '../support/services.js';

// Set-up and the checks afterwards go through the run's engine; the racing requests go through
// an AWS-like engine of this file's own that also injects faults (LOW_FAULTS, seeded): what
// holds must hold with DynamoDB's conflicts, its InternalServerErrors and uneven latency.
const SEED = Number(process.env.AWS_LIKE_DYNAMODB_SEED ?? 13);
const { services, call, token } = adminSession();
const steps = featureSteps(call, token);
let faulty: AwsLikeEngine | undefined;
let race: (request: ApiRequest) => Promise<ApiResponse>;

beforeAll(async () => {
  faulty = await faultyEngine(SEED);
  race = apiClient(testServices({ DYNAMODB_ENDPOINT: faulty.endpoint }));
});

afterAll(async () => {
  if (faulty) console.log(`concurrency: AWS-like engine ${JSON.stringify(LOW_FAULTS)}, seed ${SEED}: ${JSON.stringify(faulty.stats())}`);
  await faulty?.stop();
});

const stored = async (name: string): Promise<Feature> => (await services.featureStore.get(name)) as Feature;

/** What must hold for every stored feature, whatever raced: the rules a single writer keeps. */
async function expectConsistent(names: string[]): Promise<void> {
  for (const name of names) {
    const feature = await stored(name);
    for (const [environment, state] of Object.entries(feature.environments)) {
      if (state.enabled) expect(state.strategies.some((s) => !s.disabled), `${name} is on in ${environment} with no active strategy`).toBe(true);
    }
    for (const { feature: parent } of feature.dependencies) {
      expect((await stored(parent)).children, `${parent} should list its child ${name}`).toContain(name);
    }
    for (const child of feature.children) {
      expect((await stored(child)).dependencies.map((d) => d.feature), `${child} should depend on ${name}`).toContain(name);
    }
  }
}

const ok = (res: ApiResponse) => res.status >= 200 && res.status < 300;
/** The one 5xx a client may see: 503 ServiceUnavailable with Retry-After (nothing was written). */
const retryable503 = (res: ApiResponse) => res.status === 503 && res.body?.name === 'ServiceUnavailable' && res.headers['retry-after'] !== undefined;

describe('50 parallel writers on one feature', () => {
  it('store exactly the acknowledged changes and refuse the others with a retryable 409 or 503: strategies added and edited, variants patched, tags added, on/off', async () => {
    const project = await steps.createProject();
    const feature = await steps.createFeature(project, unique('contended'));
    const base = steps.base(project, feature);
    // Set-up, not under test: a strategy refused 503 (nothing written) on a loaded machine is sent
    // again, so every edit below names a strategy that exists.
    const own = await Promise.all(
      Array.from({ length: 10 }, (_, i) => resendWhileUnavailable(() => steps.addStrategy(project, feature, 'production', { name: 'default', title: `own-${i}` }))),
    );
    expect(own.map((res) => res.status)).toEqual(own.map(() => 200));
    const before = await stored(feature);
    const writers: Array<{ kind: string; key: string; request: ApiRequest }> = [
      ...Array.from({ length: 10 }, (_, i) => ({ kind: 'strategy', key: `added-${i}`, request: { method: 'POST', path: `${base}/environments/development/strategies`, token, body: { name: 'default', title: `added-${i}` } } })),
      ...own.map((res, i) => ({ kind: 'edit', key: `edited-${i}`, request: { method: 'PUT', path: `${base}/environments/production/strategies/${res.body.id}`, token, body: { name: 'default', title: `edited-${i}` } } })),
      ...Array.from({ length: 10 }, (_, i) => ({ kind: 'variant', key: `v${i}`, request: { method: 'PATCH', path: `${base}/environments/development/variants`, token, body: [{ op: 'add', path: '/-', value: { name: `v${i}`, weightType: 'variable', weight: 0, stickiness: 'default' } }] } })),
      ...Array.from({ length: 10 }, (_, i) => ({ kind: 'tag', key: `tag-${i}`, request: { method: 'POST', path: `/api/admin/features/${feature}/tags`, token, body: { type: 'simple', value: `tag-${i}` } } })),
      ...Array.from({ length: 10 }, (_, i) => ({ kind: 'toggle', key: String(i), request: { method: 'POST', path: `${base}/environments/${i % 2 ? 'development' : 'production'}/${i % 4 < 2 ? 'on' : 'off'}`, token } })),
    ];

    const answers = await Promise.all(writers.map(async (writer) => ({ ...writer, res: await race(writer.request) })));

    // What holds on any machine, however slow: every answer is a success or a refusal the
    // client may retry (409: the feature kept changing for all of the change's attempts; 503:
    // the request ran out of time before it could write); nothing is a 500.
    const acknowledged = answers.filter(({ res }) => ok(res));
    const refused = answers.filter(({ res }) => !ok(res));
    expect(refused.filter(({ res }) => res.status !== 409 && res.status !== 503).map(({ res }) => `${res.status} ${res.text}`)).toEqual([]);
    for (const { res } of refused) {
      expect(res.body).toEqual({ id: expect.any(String), name: res.status === 409 ? 'NameExistsError' : 'ServiceUnavailable', message: expect.any(String) });
      if (res.status === 503) expect(res.headers['retry-after']).toBeDefined();
    }
    // Exactly the acknowledged changes are stored: none lost, and no refused one half-made.
    const after = await stored(feature);
    const titles = Object.values(after.environments).flatMap((e) => e.strategies.map((s) => s.title));
    const variants = (after.environments.development?.variants ?? []).map((v) => v.name);
    const tags = after.tags.map((t) => t.value);
    const present = ({ kind, key }: { kind: string; key: string }): boolean | undefined => {
      if (kind === 'strategy' || kind === 'edit') return titles.includes(key);
      if (kind === 'variant') return variants.includes(key);
      if (kind === 'tag') return tags.includes(key);
      return undefined; // on/off: the last one wins, so an earlier acknowledged one may be overwritten
    };
    expect(acknowledged.filter((writer) => present(writer) === false).map(({ key }) => key), 'acknowledged but missing').toEqual([]);
    expect(refused.filter((writer) => present(writer) === true).map(({ key }) => key), 'refused but stored').toEqual([]);
    expect(after.version).toBeGreaterThanOrEqual(before.version + acknowledged.filter(({ kind }) => kind !== 'toggle').length);
    await expectConsistent([feature]);
  });
});

describe('parallel creates with one name', () => {
  it('give exactly one success; the others are told the name exists', async () => {
    const name = unique('twin');
    const unavailable: ApiResponse[] = [];
    const create = async () => {
      const res = await race({ method: 'POST', path: '/api/admin/projects/default/features', token, body: { name } });
      if (res.status === 503) unavailable.push(res);
      return res;
    };

    // A client told 503 (nothing was written) sends again after Retry-After; a 503 that had in
    // fact created the feature would show as no success at all.
    const answers = await Promise.all(Array.from({ length: 20 }, () => resendWhileUnavailable(create)));

    expect(unavailable.filter((res) => !retryable503(res)).map((res) => res.text)).toEqual([]);
    expect(answers.filter((res) => res.status === 201)).toHaveLength(1);
    expect(answers.filter((res) => res.status === 409)).toHaveLength(19);
    expect(new Set(answers.filter((res) => res.status === 409).map((res) => res.body.name))).toEqual(new Set(['NameExistsError']));
    expect((await stored(name)).name).toBe(name);
  });
});

describe('batch calls racing with edits', () => {
  it('a batch archive and a stale call leave every feature consistent', async () => {
    const project = await steps.createProject();
    const parent = await steps.createFeature(project, unique('parent'));
    const child = await steps.createFeature(project, unique('child'));
    const others = await Promise.all(Array.from({ length: 4 }, () => steps.createFeature(project, unique('other'))));
    await call({ method: 'POST', path: `${steps.base(project, child)}/dependencies`, token, body: { feature: parent } });
    const all = [parent, child, ...others];
    const versions = new Map(await Promise.all(all.map(async (name) => [name, (await stored(name)).version] as const)));
    const edits = all.flatMap((name) => [
      { method: 'POST', path: `${steps.base(project, name)}/environments/development/strategies`, token, body: { name: 'default' } },
      { method: 'POST', path: `${steps.base(project, name)}/environments/development/on`, token },
      { method: 'POST', path: `/api/admin/features/${name}/tags`, token, body: { type: 'simple', value: unique('t') } },
    ]);
    const batches = [
      { method: 'POST', path: `/api/admin/projects/${project}/archive`, token, body: { features: [parent, child, others[0]] } },
      { method: 'POST', path: `/api/admin/projects/${project}/stale`, token, body: { features: others, stale: true } },
    ];

    // A batch refused 503 (nothing written) is sent again, as a client would: its outcome is checked below.
    const answers = await Promise.all([
      ...batches.map((request) => resendWhileUnavailable(() => race(request))),
      ...edits.map((request) => race(request)),
    ]);

    expect(answers.filter((res) => res.status >= 500 && !retryable503(res)).map((res) => `${res.status} ${res.text}`)).toEqual([]);
    const [archived, staled] = answers;
    expect(archived?.status).toBe(202);
    expect(staled?.status).toBe(202);
    for (const name of [parent, child, others[0] as string]) expect((await stored(name)).archived).toBe(true);
    for (const name of others) expect((await stored(name)).stale).toBe(true);
    for (const name of all) expect((await stored(name)).version).toBeGreaterThan(versions.get(name) as number);
    await expectConsistent(all);
  });
});

describe('a fault after the commit', () => {
  /** Sends one request through an engine that fails every read once a transaction went through. */
  async function afterCommitFaults(send: (sendThrough: ReturnType<typeof apiClient>) => Promise<ApiResponse>): Promise<ApiResponse> {
    let committed = false;
    const engine = await faultyEngine(SEED, {
      faultRate: 0, latencyRate: 0,
      faultWhen: (operation) => {
        if (operation === 'TransactWriteItems') committed = true;
        else if (committed && (operation === 'Query' || operation === 'GetItem')) return true;
        return false;
      },
    });
    try {
      return await send(apiClient(testServices({ DYNAMODB_ENDPOINT: engine.endpoint })));
    } finally {
      await engine.stop();
    }
  }

  // Found by the fuzz with faults: the answer of an admin write was built from reads made after its
  // transaction committed, so a read failing for good told the client 503 "nothing was changed"
  // about a change that was made. The feature writes now read their answer's context first
  // (lib/features/operations.ts), and any 503 after a write landed says so (WrittenBeforeFailure).
  it('a 503 answer to switching an environment on leaves it off', async () => {
    const feature = await steps.createFeature('default', unique('after-commit'));
    const res = await afterCommitFaults(async (sendThrough) => sendThrough({
      method: 'POST', path: `${steps.base('default', feature)}/environments/development/on`, token,
    }));
    const enabled = (await stored(feature)).environments.development?.enabled;
    expect({ status: res.status, enabled }).toEqual(res.status === 503 ? { status: 503, enabled: false } : { status: 200, enabled: true });
  });

  // Found by the fuzz with faults (FUZZ_SEED=72026 or 1 at a fault rate of 0.15): ProjectService.update
  // read the project back after its transaction committed, so a read failing then answered 503 for a
  // change wholly stored. It no longer reads after the write.
  it('a 503 answer to a project update leaves the project as it was', async () => {
    const project = await steps.createProject({ description: 'before' });
    const res = await afterCommitFaults(async (sendThrough) => sendThrough({
      method: 'PUT', path: `/api/admin/projects/${project}`, token, body: { name: project, description: 'after' },
    }));
    const { description } = (await call({ method: 'GET', path: `/api/admin/projects/${project}`, token })).body;
    expect({ status: res.status, description }).toEqual(res.status === 503 ? { status: 503, description: 'before' } : { status: 200, description: 'after' });
  });
});
