import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { initialize, InMemStorageProvider, type Context, type Unleash } from 'unleash-client';
import { formatSecret } from '../../lib/tokens/model.js';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';
import { adminOverHttp } from '../support/api.js';

/**
 * The proof that matters: the official Node SDK (unleash-client) syncs from `npm start`'s server
 * and evaluates what the admin API configured. Every piece of data is made over HTTP.
 */
describe('the official Node SDK against npm start', () => {
  const adminSecret = formatSecret(['*'], '*');
  const project = unique('sdk');
  let server: StartedServer;
  let clientToken: string;

  beforeAll(async () => {
    server = await startServerProcess({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
      TABLE_NAME: unique('sdk'),
      INIT_ADMIN_API_TOKENS: adminSecret,
    });
    await admin('POST', '/api/admin/projects', { id: project, name: project });
    for (const name of ['email', 'plan', 'age', 'appVersion']) await admin('POST', '/api/admin/context', { name });
    const token = await admin('POST', '/api/admin/api-tokens', {
      tokenName: unique('sdk'), type: 'client', environment: 'development', projects: [project],
    });
    clientToken = token.secret;
  });

  // Runs last (after hooks run as a stack): whatever beforeAll got to, even a start that timed out.
  afterAll(stopStartedServers);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  const admin = adminOverHttp(() => server.url, adminSecret);

  const featurePath = (name: string) => `/api/admin/projects/${project}/features/${name}`;

  /** Creates a feature with these strategies in development and switches it on there. */
  async function feature(strategies: unknown[], options: { on?: boolean } = {}): Promise<string> {
    const name = unique('flag');
    await admin('POST', `/api/admin/projects/${project}/features`, { name });
    for (const strategy of strategies) await admin('POST', `${featurePath(name)}/environments/development/strategies`, strategy);
    if (options.on ?? true) await admin('POST', `${featurePath(name)}/environments/development/on`);
    return name;
  }

  const rollout = (rolloutPercent: number, extra: Record<string, unknown> = {}) => ({
    name: 'flexibleRollout',
    parameters: { rollout: String(rolloutPercent), stickiness: 'default', groupId: '', ...(extra.parameters as object) },
    constraints: extra.constraints ?? [],
    ...(extra.segments ? { segments: extra.segments } : {}),
    ...(extra.variants ? { variants: extra.variants } : {}),
  });

  const constrained = (constraint: Record<string, unknown>) => feature([rollout(100, { constraints: [constraint] })]);

  interface Sdk {
    unleash: Unleash;
    errors: unknown[];
    warnings: string[];
    /** The SDK's own account of its calls: registered, sent (metrics), changed, unchanged (304). */
    events: string[];
  }

  /** Starts an SDK scoped to the test project, waits for its first sync, and always destroys it. */
  async function withSdk(run: (sdk: Sdk) => Promise<void>, options: { metricsInterval?: number } = {}): Promise<Sdk> {
    const unleash = initialize({
      url: `${server.url}/api`,
      appName: unique('sdk-app'),
      customHeaders: { Authorization: clientToken },
      refreshInterval: 300,
      ...(options.metricsInterval ? { metricsInterval: options.metricsInterval } : { disableMetrics: true }),
      projectName: project,
      storageProvider: new InMemStorageProvider(),
    });
    const sdk: Sdk = { unleash, errors: [], warnings: [], events: [] };
    unleash.on('error', (error: unknown) => sdk.errors.push(error));
    unleash.on('warn', (message: string) => sdk.warnings.push(String(message)));
    for (const event of ['registered', 'sent', 'changed', 'unchanged']) unleash.on(event, () => sdk.events.push(event));
    try {
      await new Promise<void>((resolve, reject) => {
        unleash.once('synchronized', () => resolve());
        setTimeout(() => reject(new Error(`no sync: ${JSON.stringify(sdk.errors.map(String))}`)), 10_000);
      });
      await run(sdk);
    } finally {
      unleash.destroy();
    }
    expect(sdk.errors).toEqual([]);
    return sdk;
  }

  const users = (count: number) => Array.from({ length: count }, (_, index) => `user-${index}`);

  it('evaluates gradual rollouts: 0 %, 100 %, and a sticky 50 % that depends on the group id', async () => {
    const [all, none, half, halfOther] = [
      await feature([rollout(100)]),
      await feature([rollout(0)]),
      await feature([rollout(50, { parameters: { stickiness: 'userId', groupId: 'shared-group' } })]),
      await feature([rollout(50, { parameters: { stickiness: 'userId', groupId: 'other-group' } })]),
    ];

    await withSdk(async ({ unleash }) => {
      const ids = users(400);
      const halfOn = ids.filter((userId) => unleash.isEnabled(half, { userId }));
      const otherOn = ids.filter((userId) => unleash.isEnabled(halfOther, { userId }));

      expect(ids.every((userId) => unleash.isEnabled(all, { userId }))).toBe(true);
      expect(ids.some((userId) => unleash.isEnabled(none, { userId }))).toBe(false);
      expect(halfOn.length).toBeGreaterThan(140);
      expect(halfOn.length).toBeLessThan(260);
      expect(ids.filter((userId) => unleash.isEnabled(half, { userId }))).toEqual(halfOn);
      expect(otherOn).not.toEqual(halfOn);
      expect(unleash.isEnabled(unique('unknown'))).toBe(false);
    });
  });

  it('evaluates the deprecated gradualRollout strategy types: by user id, by session id and at random', async () => {
    const gradual = (name: string, percentage: number, groupId = 'g') => ({ name, parameters: { percentage: String(percentage), groupId } });
    const [userAll, userNone, userHalf, sessionAll, sessionNone, randomAll, randomNone] = [
      await feature([gradual('gradualRolloutUserId', 100)]),
      await feature([gradual('gradualRolloutUserId', 0)]),
      await feature([gradual('gradualRolloutUserId', 50, 'shared-group')]),
      await feature([gradual('gradualRolloutSessionId', 100)]),
      await feature([gradual('gradualRolloutSessionId', 0)]),
      await feature([{ name: 'gradualRolloutRandom', parameters: { percentage: '100' } }]),
      await feature([{ name: 'gradualRolloutRandom', parameters: { percentage: '0' } }]),
    ];

    await withSdk(async ({ unleash }) => {
      const ids = users(400);
      const halfOn = ids.filter((userId) => unleash.isEnabled(userHalf, { userId }));

      expect(ids.every((userId) => unleash.isEnabled(userAll, { userId }))).toBe(true);
      expect(ids.some((userId) => unleash.isEnabled(userNone, { userId }))).toBe(false);
      // Sticky: the same users every time, and about half of them.
      expect(ids.filter((userId) => unleash.isEnabled(userHalf, { userId }))).toEqual(halfOn);
      expect(halfOn.length).toBeGreaterThan(140);
      expect(halfOn.length).toBeLessThan(260);
      expect(ids.every((sessionId) => unleash.isEnabled(sessionAll, { sessionId }))).toBe(true);
      expect(ids.some((sessionId) => unleash.isEnabled(sessionNone, { sessionId }))).toBe(false);
      expect(ids.every(() => unleash.isEnabled(randomAll, {}))).toBe(true);
      expect(ids.some(() => unleash.isEnabled(randomNone, {}))).toBe(false);
    });
  });

  it('evaluates userWithId and remoteAddress strategies', async () => {
    const byUser = await feature([{ name: 'userWithId', parameters: { userIds: 'alice, bob' } }]);
    const byAddress = await feature([{ name: 'remoteAddress', parameters: { IPs: '10.0.0.1, 192.168.1.0/24' } }]);

    await withSdk(async ({ unleash }) => {
      expect(unleash.isEnabled(byUser, { userId: 'bob' })).toBe(true);
      expect(unleash.isEnabled(byUser, { userId: 'carol' })).toBe(false);
      expect(unleash.isEnabled(byAddress, { remoteAddress: '10.0.0.1' })).toBe(true);
      expect(unleash.isEnabled(byAddress, { remoteAddress: '192.168.1.77' })).toBe(true);
      expect(unleash.isEnabled(byAddress, { remoteAddress: '10.0.0.2' })).toBe(false);
    });
  });

  it('evaluates constraints of every operator family, inverted and case-insensitive ones included', async () => {
    const now = Date.now();
    const cases: Array<[Record<string, unknown>, Context, Context]> = [
      [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'] }, { userId: 'a' }, { userId: 'c' }],
      [{ contextName: 'userId', operator: 'NOT_IN', values: ['a'] }, { userId: 'c' }, { userId: 'a' }],
      [{ contextName: 'userId', operator: 'IN', values: ['a'], inverted: true }, { userId: 'z' }, { userId: 'a' }],
      [{ contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'] }, { properties: { email: 'x@example.com' } }, { properties: { email: 'x@example.org' } }],
      [{ contextName: 'email', operator: 'STR_STARTS_WITH', values: ['ADMIN'], caseInsensitive: true }, { properties: { email: 'admin@x.io' } }, { properties: { email: 'user@x.io' } }],
      [{ contextName: 'email', operator: 'STR_CONTAINS', values: ['beta'] }, { properties: { email: 'a.beta@x.io' } }, { properties: { email: 'a.BETA@x.io' } }],
      [{ contextName: 'age', operator: 'NUM_EQ', value: '30' }, { properties: { age: '30' } }, { properties: { age: '31' } }],
      [{ contextName: 'age', operator: 'NUM_GT', value: '30' }, { properties: { age: '31' } }, { properties: { age: '30' } }],
      [{ contextName: 'age', operator: 'NUM_GTE', value: '30' }, { properties: { age: '30' } }, { properties: { age: '29' } }],
      [{ contextName: 'age', operator: 'NUM_LT', value: '18' }, { properties: { age: '17' } }, { properties: { age: '18' } }],
      [{ contextName: 'age', operator: 'NUM_LTE', value: '18' }, { properties: { age: '18' } }, { properties: { age: '19' } }],
      [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: new Date(now - 3_600_000).toISOString() }, { currentTime: new Date(now) }, { currentTime: new Date(now - 7_200_000) }],
      [{ contextName: 'currentTime', operator: 'DATE_BEFORE', value: new Date(now + 3_600_000).toISOString() }, { currentTime: new Date(now) }, { currentTime: new Date(now + 7_200_000) }],
      [{ contextName: 'appVersion', operator: 'SEMVER_EQ', value: '1.2.3' }, { properties: { appVersion: '1.2.3' } }, { properties: { appVersion: '1.2.4' } }],
      [{ contextName: 'appVersion', operator: 'SEMVER_GT', value: '1.2.3' }, { properties: { appVersion: '1.10.0' } }, { properties: { appVersion: '1.2.3-beta.1' } }],
      [{ contextName: 'appVersion', operator: 'SEMVER_LT', value: '2.0.0' }, { properties: { appVersion: '2.0.0-rc.1' } }, { properties: { appVersion: '2.0.0' } }],
    ];
    const names: string[] = [];
    for (const [constraint] of cases) names.push(await constrained(constraint));

    await withSdk(async ({ unleash }) => {
      const outcomes = cases.map(([constraint, yes, no], index) => ({
        operator: `${constraint.operator}${constraint.inverted ? ' inverted' : ''}`,
        matching: unleash.isEnabled(names[index] as string, yes),
        other: unleash.isEnabled(names[index] as string, no),
      }));

      expect(outcomes).toEqual(cases.map(([constraint]) => ({
        operator: `${constraint.operator}${constraint.inverted ? ' inverted' : ''}`, matching: true, other: false,
      })));
    });
  });

  it('evaluates segments, which the SDK receives as a list and resolves by id', async () => {
    const segment = await admin('POST', '/api/admin/segments', {
      name: unique('pro-users'), constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }],
    });
    const name = await feature([rollout(100, { segments: [segment.id] })]);

    await withSdk(async ({ unleash }) => {
      expect(unleash.isEnabled(name, { properties: { plan: 'pro' } })).toBe(true);
      expect(unleash.isEnabled(name, { properties: { plan: 'free' } })).toBe(false);
    });
  });

  it('serves strategy variants, and feature variants with overrides in a stable, proportional split', async () => {
    const blue = { name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'b' } };
    const withStrategyVariant = await feature([rollout(100, { variants: [blue] })]);
    const withFeatureVariants = await feature([rollout(100)]);
    await admin('PUT', `${featurePath(withFeatureVariants)}/environments/development/variants`, [
      { name: 'control', weight: 500, weightType: 'variable', stickiness: 'default', overrides: [{ contextName: 'userId', values: ['vip'] }] },
      { name: 'treatment', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"color":"red"}' } },
    ]);

    await withSdk(async ({ unleash }) => {
      const strategyVariant = unleash.getVariant(withStrategyVariant, { userId: 'u1' });
      const picks = users(400).map((userId) => unleash.getVariant(withFeatureVariants, { userId }).name);
      const treated = picks.filter((pick) => pick === 'treatment');

      expect(strategyVariant).toMatchObject({ name: 'blue', enabled: true, payload: { type: 'string', value: 'b' } });
      expect(new Set(picks)).toEqual(new Set(['control', 'treatment']));
      expect(treated.length).toBeGreaterThan(140);
      expect(treated.length).toBeLessThan(260);
      expect(users(400).map((userId) => unleash.getVariant(withFeatureVariants, { userId }).name)).toEqual(picks);
      const vipPicks = users(20).map((userId) => unleash.getVariant(withFeatureVariants, { userId: 'vip', sessionId: userId }).name);
      expect(new Set(vipPicks)).toEqual(new Set(['control']));
      const treatment = unleash.getVariant(withFeatureVariants, { userId: users(400)[picks.indexOf('treatment')] as string });
      expect(treatment.payload).toEqual({ type: 'json', value: '{"color":"red"}' });
    });
  });

  it('evaluates parent and child dependencies', async () => {
    const parentOn = await feature([rollout(100)]);
    const parentOff = await feature([rollout(100)], { on: false });
    const needsOn = await feature([rollout(100)]);
    const needsOnButOff = await feature([rollout(100)]);
    const needsOff = await feature([rollout(100)]);
    await admin('POST', `${featurePath(needsOn)}/dependencies`, { feature: parentOn });
    await admin('POST', `${featurePath(needsOnButOff)}/dependencies`, { feature: parentOff });
    await admin('POST', `${featurePath(needsOff)}/dependencies`, { feature: parentOff, enabled: false });

    await withSdk(async ({ unleash }) => {
      expect(unleash.isEnabled(needsOn)).toBe(true);
      expect(unleash.isEnabled(needsOnButOff)).toBe(false);
      expect(unleash.isEnabled(needsOff)).toBe(true);
    });
  });

  it('polls with 304s, sees an admin change on its next poll, and registers and reports without a warning', async () => {
    const name = await feature([rollout(100)]);

    const { warnings, events } = await withSdk(
      async ({ unleash }) => {
        expect(unleash.isEnabled(name)).toBe(true);
        const changed = new Promise<void>((resolve) => unleash.once('changed', () => resolve()));
        const sent = new Promise<void>((resolve) => unleash.once('sent', () => resolve()));

        // Wait for a 304 poll first, so the change below is found by a poll that sent an ETag.
        await new Promise<void>((resolve) => unleash.once('unchanged', () => resolve()));
        await admin('POST', `${featurePath(name)}/environments/development/off`);
        await changed;
        await sent;

        expect(unleash.isEnabled(name)).toBe(false);
      },
      { metricsInterval: 200 },
    );

    expect(warnings).toEqual([]);
    expect(events).toEqual(expect.arrayContaining(['registered', 'unchanged', 'changed', 'sent']));
    // Reports reach the table through the metrics queues' windows (ADR 15; 1 s under npm start).
    await expect.poll(async () => (await admin('GET', featurePath(name))).lastSeenAt, { interval: 200, timeout: 30_000 }).toEqual(expect.any(String));
  });
});
