import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context, Unleash } from 'unleash-client';
import { stopStartedServers } from '../../support/local-server.js';
import { unique } from '../../support/services.js';
import { isPoll, type AccessEntry } from '../support/access-log.js';
import { startWorldServer, type WorldServer } from '../support/server.js';
import { EDGE_VERSION, prepareEdge, startEdge, stopEdges, type StartedEdge } from './edge.js';
import { until, withSdk } from './node-sdk.js';

/**
 * Unleash Edge, built unchanged from crates.io, in edge mode in front of `npm start`: it validates
 * its tokens through the service's `/edge/validate`, polls `/api/client/features` with the
 * wildcard client token and serves SDKs and browsers from that copy, and sends what its SDKs
 * report upstream through `/api/client/metrics/bulk`. Every wait below is on an event the test
 * counts (an SDK's event, a request in the service's access log), bounded only by the test timeout.
 */
describe(`Unleash Edge ${EDGE_VERSION} in front of npm start`, () => {
  /** Edge's `unleash-appname` on every request it makes upstream: how the access log tells them apart. */
  const edgeApp = unique('edge');
  const projectA = unique('edge-a');
  const projectB = unique('edge-b');
  let server: WorldServer;
  let edge: StartedEdge;
  const tokens = { wildcard: '', scoped: '', frontend: '' };
  const flags = { inA: [] as string[], inB: [] as string[], changing: '', counted: '' };

  beforeAll(async () => {
    await prepareEdge();
    server = await startWorldServer('edge');
    for (const id of [projectA, projectB]) await admin('POST', '/api/admin/projects', { id, name: id });
    for (const name of ['plan', 'country']) await admin('POST', '/api/admin/context', { name });
    tokens.wildcard = await createToken('client', ['*']);
    tokens.scoped = await createToken('client', [projectA]);
    tokens.frontend = await createToken('frontend', ['*']);
    await createFlags();
    const validationsBefore = validations();
    // The wildcard client token first: Edge sends each environment's metrics with the first
    // startup token of that environment.
    edge = await startEdge({ upstreamUrl: server.url, tokens: [tokens.wildcard, tokens.scoped, tokens.frontend], tokenRevalidationSeconds: 2, appName: edgeApp });
    console.info(`unleash-edge ${EDGE_VERSION}: answered its health and ready checks ${edge.startMs} ms after it was started (validations before it: ${validationsBefore})`);
  });

  // Run as a stack: the servers of this file stop first, the sweeps of whatever is left last.
  afterAll(stopStartedServers);
  afterAll(stopEdges);
  afterAll(async () => {
    await edge?.stop();
    expect(await server?.stop()).toBe(0);
  });

  const admin = (method: string, path: string, body?: unknown) => server.admin(method, path, body);
  const createToken = (type: 'client' | 'frontend', projects: string[]) => server.token(type, 'development', projects);

  const featurePath = (project: string, name: string) => `/api/admin/projects/${project}/features/${name}`;

  /** A feature of `project` with these strategies in development, switched on there unless `on` is false. */
  async function feature(project: string, strategies: unknown[], options: { on?: boolean } = {}): Promise<string> {
    const name = unique('edge-flag');
    await admin('POST', `/api/admin/projects/${project}/features`, { name });
    for (const strategy of strategies) await admin('POST', `${featurePath(project, name)}/environments/development/strategies`, strategy);
    if (options.on ?? true) await admin('POST', `${featurePath(project, name)}/environments/development/on`);
    (project === projectA ? flags.inA : flags.inB).push(name);
    return name;
  }

  const rollout = (percent: number, extra: Record<string, unknown> = {}) => ({
    name: 'flexibleRollout',
    parameters: { rollout: String(percent), stickiness: 'default', groupId: 'edge' },
    constraints: [],
    ...extra,
  });

  /** Every kind of definition Edge must pass through unchanged: constraints, segments, variants, dependencies. */
  async function createFlags(): Promise<void> {
    const segment = await admin('POST', '/api/admin/segments', {
      name: unique('edge-nordic'), constraints: [{ contextName: 'country', operator: 'IN', values: ['no', 'se'] }],
    });
    await feature(projectA, [rollout(50, { parameters: { rollout: '50', stickiness: 'userId', groupId: 'half' } })]);
    await feature(projectA, [rollout(100, { constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] })]);
    await feature(projectA, [rollout(100, { segments: [segment.id] })]);
    await feature(projectA, [rollout(100, { variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'b' } }] })]);
    const withVariants = await feature(projectA, [rollout(100)]);
    await admin('PUT', `${featurePath(projectA, withVariants)}/environments/development/variants`, [
      { name: 'control', weight: 500, weightType: 'variable', stickiness: 'default', overrides: [{ contextName: 'userId', values: ['user-7'] }] },
      { name: 'treatment', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"color":"red"}' } },
    ]);
    const parent = await feature(projectA, [rollout(100, { constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] })]);
    const child = await feature(projectA, [rollout(100)]);
    await admin('POST', `${featurePath(projectA, child)}/dependencies`, { feature: parent });
    await feature(projectA, [rollout(100)], { on: false });
    await feature(projectA, [{ name: 'userWithId', parameters: { userIds: 'user-3, user-11' } }]);
    await feature(projectB, [rollout(100)]);
    await feature(projectB, [rollout(30, { parameters: { rollout: '30', stickiness: 'userId', groupId: 'b' } })]);
    flags.changing = await feature(projectA, [rollout(100)]);
    flags.counted = await feature(projectA, [rollout(100)]);
  }

  /** What Edge has asked the service so far, from the service's access log. */
  const fromEdge = (): AccessEntry[] => server.access().filter((entry) => entry.app === edgeApp);
  const requests = (method: string, path: string) => fromEdge().filter((entry) => entry.method === method && entry.path === path);
  const validations = () => requests('POST', '/edge/validate').length;
  const polls = () => fromEdge().filter(isPoll);

  const contexts: Context[] = Array.from({ length: 40 }, (_, index) => ({
    userId: `user-${index}`,
    sessionId: `session-${index}`,
    properties: { plan: index % 3 === 0 ? 'pro' : 'free', country: ['no', 'se', 'dk', 'fi'][index % 4] as string },
  }));

  const evaluations = (unleash: Unleash, names: string[]) =>
    names.flatMap((name) => contexts.map((context) => ({ name, userId: context.userId, enabled: unleash.isEnabled(name, context), variant: unleash.getVariant(name, context) })));

  const definitionNames = (unleash: Unleash) => unleash.getFeatureToggleDefinitions().map((flag) => flag.name).sort();

  it('started after validating its client and frontend tokens through /edge/validate, which it calls without a token', async () => {
    const known = (await (await fetch(`${edge.url}/internal-backstage/tokens`)).json()) as Record<string, unknown>;
    const validated = (known.tokenValidationStatus ?? known.token_validation_status) as Array<{ type: string; environment: string; projects: string[] }>;

    expect(validations()).toBeGreaterThan(0);
    // Edge names a client token `backend` in its own listing (the service answered `client`).
    expect(validated.map(({ type, environment, projects }) => ({ type, environment, projects })).sort((a, b) => a.type.localeCompare(b.type) || a.projects[0]!.localeCompare(b.projects[0]!))).toEqual([
      { type: 'backend', environment: 'development', projects: ['*'] },
      { type: 'backend', environment: 'development', projects: [projectA] },
      { type: 'frontend', environment: 'development', projects: ['*'] },
    ]);
  });

  it('serves an SDK with the wildcard token the same flags and evaluations as the service serves it', async () => {
    const all = [...flags.inA, ...flags.inB];
    await withSdk(server.url, tokens.wildcard, async (direct) => {
      await withSdk(edge.url, tokens.wildcard, async (throughEdge) => {
        expect(definitionNames(throughEdge.unleash)).toEqual(definitionNames(direct.unleash));
        expect(evaluations(throughEdge.unleash, all)).toEqual(evaluations(direct.unleash, all));
        // Not vacuous: the flags answer differently for different users.
        expect(new Set(evaluations(direct.unleash, all).map((result) => result.enabled))).toEqual(new Set([true, false]));
        expect(throughEdge.errors).toEqual([]);
      });
    });
  });

  it('serves the project-scoped token only the flags of its project', async () => {
    await withSdk(server.url, tokens.scoped, async (direct) => {
      await withSdk(edge.url, tokens.scoped, async (throughEdge) => {
        expect(definitionNames(throughEdge.unleash)).toEqual([...flags.inA].sort());
        expect(definitionNames(direct.unleash)).toEqual([...flags.inA].sort());
        expect(evaluations(throughEdge.unleash, flags.inB).some((result) => result.enabled)).toBe(false);
        expect(evaluations(throughEdge.unleash, flags.inA)).toEqual(evaluations(direct.unleash, flags.inA));
      });
    });
  });

  it("answers its Frontend API to the frontend token as the service's Frontend API does, and refuses each token the other API", async () => {
    const frontend = async (baseUrl: string, context: Context, token = tokens.frontend) => {
      const query = new URLSearchParams({ userId: String(context.userId), sessionId: String(context.sessionId) });
      for (const [key, value] of Object.entries(context.properties ?? {})) query.set(`properties[${key}]`, String(value));
      const res = await fetch(`${baseUrl}/api/frontend?${query}`, { headers: { Authorization: token } });
      if (res.status !== 200) return res.status;
      const body = (await res.json()) as { toggles: Array<{ name: string; enabled: boolean; variant: { name: string; enabled: boolean; payload?: unknown } }> };
      return body.toggles
        .map(({ name, enabled, variant }) => ({ name, enabled, variant: { name: variant.name, enabled: variant.enabled, payload: variant.payload ?? null } }))
        .sort((a, b) => a.name.localeCompare(b.name));
    };

    for (const context of contexts.slice(0, 12)) {
      const fromEdge = await frontend(edge.url, context);
      expect(fromEdge).toEqual(await frontend(server.url, context));
      expect(Array.isArray(fromEdge) && fromEdge.length > 0).toBe(true);
    }
    expect(await frontend(edge.url, contexts[0] as Context, tokens.wildcard)).toBe(403);
    expect((await fetch(`${edge.url}/api/client/features`, { headers: { Authorization: tokens.frontend } })).status).toBe(403);
  });

  it("sends what its SDKs report upstream through /api/client/metrics/bulk: the service counts the SDK's evaluations and lists its application", async () => {
    const appName = unique('edge-metrics-app');
    const bulkBefore = requests('POST', '/api/client/metrics/bulk').length;

    await withSdk(edge.url, tokens.wildcard, async ({ unleash }) => {
      const sent = new Promise((resolve) => unleash.once('sent', resolve));
      for (const context of contexts.slice(0, 7)) unleash.isEnabled(flags.counted, context);
      await sent;
    }, { appName, metrics: true });

    const usage = await until(async () => {
      const raw = await admin('GET', `/api/admin/client-metrics/features/${flags.counted}/raw?hoursBack=2`);
      const yes = (raw.data as Array<{ yes: number }>).reduce((sum, hour) => sum + hour.yes, 0);
      return yes >= 7 && raw;
    });
    const applications = await until(async () => {
      const listed = await admin('GET', `/api/admin/metrics/applications?query=${appName}`);
      return (listed.applications as Array<{ appName: string }>).some((app) => app.appName === appName) && listed;
    });

    // Summed over the hours: the seven may straddle an hour's end.
    const byEnvironment: Record<string, { yes: number; no: number }> = {};
    for (const { environment, yes, no } of usage.data as Array<{ environment: string; yes: number; no: number }>) {
      const sum = (byEnvironment[environment] ??= { yes: 0, no: 0 });
      sum.yes += yes;
      sum.no += no;
    }
    expect(byEnvironment).toEqual({ development: { yes: 7, no: 0 } });
    expect(applications.applications.map((app: { appName: string }) => app.appName)).toContain(appName);
    expect(requests('POST', '/api/client/metrics/bulk').filter((entry) => entry.status < 300).length).toBeGreaterThan(bulkBefore);
    // The SDK reported to Edge only: nothing of its reached the service itself.
    expect(server.access().filter((entry) => entry.app === appName)).toEqual([]);
  });

  it('polls with 304s while nothing changes, and the first poll that starts after a change brings it to the SDK', async () => {
    await withSdk(edge.url, tokens.wildcard, async ({ unleash }) => {
      expect(unleash.isEnabled(flags.changing)).toBe(true);
      // A steady poll first: Edge sent back the service's quoted ETag and was answered 304.
      const pollsBefore = polls().length;
      await until(() => polls().slice(pollsBefore).some((poll) => poll.status === 304));

      await admin('POST', `${featurePath(projectA, flags.changing)}/environments/development/off`);
      const pollsAtChange = polls().length;
      const changedAfter = new Promise((resolve) => unleash.once('changed', resolve));
      await changedAfter;
      const after = polls().slice(pollsAtChange);

      expect(unleash.isEnabled(flags.changing)).toBe(false);
      // Polls are one at a time: one may have been under way at the change; the next started after it.
      const bringing = after.findIndex((poll) => poll.status === 200);
      expect(bringing).toBeGreaterThanOrEqual(0);
      expect(bringing).toBeLessThanOrEqual(1);
    });
  });

  it("drops a deleted token that rides on another token's poll at its first revalidation after the delete: the SDK is refused with 403", async () => {
    const doomed = await createToken('client', [projectA]);
    const sdk = await withSdk(edge.url, doomed, async ({ unleash }) => {
      expect(definitionNames(unleash)).toEqual([...flags.inA].sort());
      const refused = new Promise((resolve) => unleash.once('error', resolve));

      await admin('DELETE', `/api/admin/api-tokens/${encodeURIComponent(doomed)}`);
      const validationsAtDelete = validations();
      await until(async () => (await fetch(`${edge.url}/api/client/features`, { headers: { Authorization: doomed } })).status === 403);
      const validationsWhenDropped = validations();
      await refused;

      // Revalidations are one at a time: one may have been under way at the delete.
      expect(validationsWhenDropped - validationsAtDelete).toBeGreaterThanOrEqual(1);
      expect(validationsWhenDropped - validationsAtDelete).toBeLessThanOrEqual(2);
    });

    expect(sdk.errors).toEqual([expect.stringContaining('responded 403')]);
  });

  it('drops a deleted token it polls with at its first poll after the delete, which the service answers 401', async () => {
    const polled = await createToken('client', [projectB]);
    const pollerApp = unique('edge-poller');
    // An Edge of its own, whose only token is the one it polls with (the first Edge's wildcard
    // token would cover it).
    const poller = await startEdge({ upstreamUrl: server.url, tokens: [polled], appName: pollerApp });
    const pollsOf = () => server.access().filter((entry) => entry.app === pollerApp && isPoll(entry));
    try {
      const sdk = await withSdk(poller.url, polled, async ({ unleash }) => {
        expect(definitionNames(unleash)).toEqual([...flags.inB].sort());
        const refused = new Promise((resolve) => unleash.once('error', resolve));

        await admin('DELETE', `/api/admin/api-tokens/${encodeURIComponent(polled)}`);
        const pollsAtDelete = pollsOf().length;
        await until(() => pollsOf().slice(pollsAtDelete).some((poll) => poll.status === 401));
        await until(async () => (await fetch(`${poller.url}/api/client/features`, { headers: { Authorization: polled } })).status === 403);
        await refused;
        const known = (await (await fetch(`${poller.url}/internal-backstage/tokens`)).json()) as Record<string, unknown>;

        // Polls are one at a time: one may have been under way at the delete.
        expect(pollsOf().slice(pollsAtDelete).findIndex((poll) => poll.status === 401)).toBeLessThanOrEqual(1);
        // Edge no longer polls with it.
        expect(known.tokenRefreshes ?? known.token_refreshes).toEqual([]);
      });

      expect(sdk.errors).toEqual([expect.stringContaining('responded 403')]);
    } finally {
      await poller.stop();
    }
  });

  it('stops on SIGTERM, after sending the service its last report on itself', async () => {
    const reportsBefore = requests('POST', '/api/client/metrics/edge').length;

    expect(await edge.stop()).toBe(0);
    const reportsSince = () => requests('POST', '/api/client/metrics/edge').slice(reportsBefore);
    await until(() => reportsSince().length > 0);
    const reports = reportsSince();

    expect(reports.map((report) => report.status < 300)).toEqual([true]);
  });

  it('was answered below 400 by the service for every request it made upstream but one: its frontend token registering as an SDK', () => {
    const count = (method: string, path: string) => requests(method, path).length;
    console.info(`unleash-edge ${EDGE_VERSION} upstream: ${count('POST', '/edge/validate')} validations, ${polls().length} polls (${polls().filter((poll) => poll.status === 304).length} answered 304), ${count('POST', '/api/client/metrics/bulk')} bulk metrics, ${count('POST', '/api/client/metrics/edge')} instance reports, ${count('POST', '/api/client/register')} registrations`);

    expect(fromEdge().length).toBeGreaterThan(0);
    // Edge registers every startup token it has validated as an SDK would, its frontend token
    // too; Unleash refuses a frontend token on /api/client (403) and so does the service. Edge
    // logs a warning and goes on.
    expect(fromEdge().filter((entry) => entry.status >= 400).map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'POST', path: '/api/client/register', status: 403 },
    ]);
    expect(edge.output()).toContain('Failed to register client upstream with status code 403 Forbidden');
  });
});
