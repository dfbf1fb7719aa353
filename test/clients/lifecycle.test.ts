import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopStartedServers } from '../support/local-server.js';
import { unique } from '../support/services.js';
import { discoverClients } from './support/discovery.js';
import { startEvaluator, stopEvaluators, type Evaluator, type OfrepResult, type SdkResult } from './support/evaluator.js';
import { startWorldServer, untilLogged, type WorldServer } from './support/server.js';
import { isPoll, type AccessEntry } from './support/access-log.js';
import { defaultFor, payloadValue } from './support/spec-cases.js';

/**
 * Issues 26 and 27: what an application lives through with each client, counted on the server
 * (its access log, test/clients/support/access-log.ts). An SDK gets variants with payloads of
 * every type, a change within one poll, 304s in the steady state, its registration and metrics
 * shown to the admin, and survives its token's deletion; an OFREP provider gets a missing flag,
 * a bad context, a disabled flag (not found through a frontend token) and a payload of every
 * type. Nothing waits on the clock: each wait is for a counted event, bounded only by the
 * test's timeout.
 */

const clients = await discoverClients();
const WAIT = { timeout: 600_000 };

const PAYLOADS = [
  { type: 'string', value: 'a string payload' },
  { type: 'number', value: '42.5' },
  { type: 'json', value: '{"nested":{"list":[1,"two",true]},"n":7}' },
];

let world: WorldServer;
const prepared = new Map<string, Promise<void>>();
const summary: string[] = [];

beforeAll(async () => {
  for (const client of clients) {
    const preparing = client.prepare();
    preparing.catch(() => undefined); // reported by the client's own tests
    prepared.set(client.name, preparing);
    await preparing.catch(() => undefined);
  }
  world = await startWorldServer('lifecycle');
});

afterAll(async () => {
  await stopEvaluators();
  await stopStartedServers();
  for (const line of summary) console.log(line);
});

/** A project of its own per client, so one client's changes never move another's answers. */
async function projectFor(label: string): Promise<string> {
  const project = unique(label);
  await world.admin('POST', '/api/admin/projects', { id: project, name: project });
  return project;
}

const featurePath = (project: string, name: string) => `/api/admin/projects/${project}/features/${name}`;

/** A feature on in development for everyone, with one variant carrying `payload` when given. */
async function feature(project: string, name: string, options: { on: boolean; payload?: { type: string; value: string } }) {
  await world.admin('POST', `/api/admin/projects/${project}/features`, { name });
  await world.admin('POST', `${featurePath(project, name)}/environments/development/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: '100', stickiness: 'default', groupId: name },
    constraints: [],
    variants: options.payload ? [{ name: `v-${options.payload.type}`, weight: 1000, weightType: 'variable', stickiness: 'default', payload: options.payload }] : [],
  });
  if (options.on) await world.admin('POST', `${featurePath(project, name)}/environments/development/on`);
}

const pollsOf = (entries: AccessEntry[], app: string) => entries.filter((entry) => entry.app === app && isPoll(entry));

for (const client of clients.filter((candidate) => candidate.sdk)) {
  describe(`${client.name} sdk through an application's life`, () => {
    const app = `lifecycle-${client.name}`;
    let project: string;
    let token: string;
    let evaluator: Evaluator;
    const flag = (suffix: string) => `${client.name}-${suffix}`;
    let cases = 0;
    const evaluate = async (requests: Array<{ flag: string; type: 'boolean' | 'variant' }>) => {
      cases += requests.length;
      return evaluator.evaluate(requests.map((request) => ({ ...request, context: { userId: 'user-1' } })));
    };

    beforeAll(async () => {
      await prepared.get(client.name);
      project = await projectFor(`lc-${client.name}`);
      for (const payload of PAYLOADS) await feature(project, flag(`payload-${payload.type}`), { on: true, payload });
      await feature(project, flag('change'), { on: false });
      token = await world.token('client', 'development', [project]);
      evaluator = await startEvaluator(client, 'sdk', { url: world.url, token, appName: app, environment: 'development', refreshSeconds: 1, metricsSeconds: 1 });
    });
    afterAll(async () => {
      await evaluator?.stop();
      const counts = world?.counts(app);
      if (counts) {
        summary.push(`${client.name} sdk (${evaluator?.clientVersion}): ${cases} cases, ${counts.polls} polls, ${counts.notModified} answered 304, ${counts.refused} refused, ${counts.registrations} registrations, ${counts.metrics} metrics posts, ${counts.bulkMetrics} bulk metrics posts`);
      }
    });

    it('gets each variant with its payload, of every type', async () => {
      const results = (await evaluate(PAYLOADS.map((payload) => ({ flag: flag(`payload-${payload.type}`), type: 'variant' })))) as SdkResult[];
      expect(results.map((result) => ('variant' in result ? { name: result.variant.name, payload: result.variant.payload } : result)))
        .toEqual(PAYLOADS.map((payload) => ({ name: `v-${payload.type}`, payload })));
    });

    it('sees a change by the first poll that starts after it', WAIT, async () => {
      expect(await evaluate([{ flag: flag('change'), type: 'boolean' }])).toEqual([{ enabled: false }]);
      await world.admin('POST', `${featurePath(project, flag('change'))}/environments/development/on`);
      // Polls are sequential: of the polls answered after the change was acknowledged, the first
      // may have started before it, the second started after it; once a third has been answered,
      // the second's answer has been taken in.
      const before = pollsOf(world.access(), app).length;
      const entries = await untilLogged(world, (logged) => pollsOf(logged, app).length >= before + 3);
      const after = pollsOf(entries, app).slice(before, before + 2);
      expect(after.map((poll) => poll.status), 'one of the two polls after the change brought it').toContain(200);
      expect(await evaluate([{ flag: flag('change'), type: 'boolean' }])).toEqual([{ enabled: true }]);
    });

    it('is answered 304 while nothing changes', WAIT, async () => {
      const before = pollsOf(world.access(), app).length;
      const entries = await untilLogged(world, (logged) => pollsOf(logged, app).length >= before + 4);
      // The first poll counted may still carry the last change; the ones after it cannot.
      const steady = pollsOf(entries, app).slice(before + 1, before + 4);
      expect(steady.map((poll) => poll.status)).toEqual([304, 304, 304]);
    });

    it('registers and sends metrics, which the admin API shows', WAIT, async () => {
      await untilLogged(world, () => {
        const counts = world.counts(app);
        return counts.registrations >= 1 && counts.metrics >= 1;
      });
      await until(async () => {
        const { applications } = await world.admin('GET', '/api/admin/metrics/applications');
        return (applications as Array<{ appName: string }>).some((known) => known.appName === app);
      });
      await until(async () => {
        const usage = await world.admin('GET', `/api/admin/client-metrics/features/${flag('change')}`);
        return (usage.seenApplications as string[]).includes(app);
      });
    });

    it('keeps answering, and running, once its token is deleted', WAIT, async () => {
      await world.admin('DELETE', `/api/admin/api-tokens/${encodeURIComponent(token)}`);
      // Some SDKs stop polling after a 401 (Node's says so and stops): one refused poll is the signal.
      await untilLogged(world, () => world.counts(app).refused >= 1);
      // The last flags it fetched still answer, as an application needs.
      expect(await evaluate([{ flag: flag('change'), type: 'boolean' }])).toEqual([{ enabled: true }]);
      expect(evaluator.running()).toBe(true);
    });
  });
}

for (const client of clients.filter((candidate) => candidate.ofrep)) {
  describe(`${client.name} ofrep: errors, a disabled flag and typed payloads`, () => {
    let project: string;
    let evaluator: Evaluator;
    let cases = 0;
    let disabledValue = 'not asked';
    let badContext = 'not asked';
    const flag = (suffix: string) => `${client.name}-ofrep-${suffix}`;
    const ask = async (requests: Array<{ flag: string; type: 'boolean' | 'string' | 'number' | 'object'; default: unknown; context?: Record<string, unknown> }>) => {
      cases += requests.length;
      return (await evaluator.evaluate(requests.map((request) => ({ context: { targetingKey: 'user-1' }, ...request })))) as OfrepResult[];
    };

    beforeAll(async () => {
      await prepared.get(client.name);
      project = await projectFor(`lo-${client.name}`);
      for (const payload of PAYLOADS) await feature(project, flag(`payload-${payload.type}`), { on: true, payload });
      await feature(project, flag('off'), { on: false });
      const token = await world.token(client.ofrep?.token ?? 'client', 'development', [project]);
      evaluator = await startEvaluator(client, 'ofrep', { url: world.url, token, appName: `lifecycle-${client.name}-ofrep`, environment: 'development' });
    });
    afterAll(async () => {
      await evaluator?.stop();
      summary.push(`${client.name} ofrep (${evaluator?.clientVersion}): ${cases} cases; a disabled flag answers ${disabledValue}; a bad context: ${badContext}`);
    });

    it('answers FLAG_NOT_FOUND for a flag that does not exist, with the default', async () => {
      const [missing] = await ask([{ flag: flag('missing'), type: 'boolean', default: true }]);
      expect(missing).toMatchObject({ value: true, errorCode: 'FLAG_NOT_FOUND' });
    });

    it('is refused INVALID_CONTEXT for an attribute that is an object', async () => {
      const before = world.access().length;
      const [refused] = await ask([{ flag: flag('off'), type: 'boolean', default: true, context: { targetingKey: 'user-1', nested: { a: 1 } } }]);
      if (refused?.errorCode === 'INVALID_CONTEXT') {
        expect(refused.value).toBe(true);
        badContext = 'INVALID_CONTEXT with the default';
        return;
      }
      // A web provider evaluates every flag in one bulk request when the context changes: the
      // server refuses that request, and the provider keeps its last answers (it reports no code).
      // The server's access log is read from its output, which can trail the provider's answer:
      // wait for the refusal to be logged (the test's timeout bounds the wait).
      const isBulkRefusal = (entry: { path: string; status: number }) => entry.path === '/ofrep/v1/evaluate/flags' && entry.status === 400;
      const logged = await untilLogged(world, (entries) => entries.slice(before).some(isBulkRefusal));
      expect(logged.slice(before).filter(isBulkRefusal).length, `${JSON.stringify(refused)}: neither INVALID_CONTEXT nor a refused bulk request`).toBeGreaterThan(0);
      badContext = 'its bulk request refused (400), its last answers kept';
    });

    const frontendToken = client.ofrep?.token === 'frontend';
    it(frontendToken
      ? 'answers FLAG_NOT_FOUND with the default for a flag that is off: a frontend token sees only the flags on for the caller'
      : 'answers reason DISABLED for a flag that is off: the server\'s false, or the caller\'s default where the provider prefers it', async () => {
      const [off] = await ask([{ flag: flag('off'), type: 'boolean', default: true }]);
      if (frontendToken) {
        // The server answers an off flag as it answers one that does not exist (README, "OpenFeature (OFREP)").
        expect(off).toMatchObject({ value: true, errorCode: 'FLAG_NOT_FOUND' });
        disabledValue = 'FLAG_NOT_FOUND with the caller\'s default (a frontend token)';
        return;
      }
      expect(off).toMatchObject({ reason: 'DISABLED', errorCode: null });
      // The server answers false; Go's provider gives the caller its default for a disabled flag.
      expect([false, true]).toContain(off?.value);
      disabledValue = off?.value === false ? 'the server\'s false' : 'the caller\'s default';
    });

    it('answers each payload as its type: string, number, object', async () => {
      const types = { string: 'string', number: 'number', json: 'object' } as const;
      const results = await ask(PAYLOADS.map((payload) => {
        const type = types[payload.type as keyof typeof types];
        return { flag: flag(`payload-${payload.type}`), type, default: defaultFor(type, payloadValue(payload)) };
      }));
      expect(results.map(({ value, variant, errorCode }) => ({ value, variant, errorCode })))
        .toEqual(PAYLOADS.map((payload) => ({ value: payloadValue(payload), variant: `v-${payload.type}`, errorCode: null })));
    });
  });
}

/** Asks again until `condition` holds (the metrics stages store asynchronously); the test timeout bounds it. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 250));
}
