import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { initialize, InMemStorageProvider, type Unleash } from 'unleash-client';
import { formatSecret } from '../../lib/tokens/model.js';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';
import { adminOverHttp } from '../support/api.js';

type Mode = NonNullable<Parameters<typeof initialize>[0]['experimentalMode']>;

/**
 * The official Node SDK in its newer modes against `npm start`: delta polling
 * (/api/client/delta) follows changes, removals and segment changes; streaming
 * (/api/client/streaming, which this server does not offer) falls back to polling at once.
 */
describe('the Node SDK’s delta and streaming modes against npm start', () => {
  const adminSecret = formatSecret(['*'], '*');
  const project = unique('delta');
  let server: StartedServer;
  let clientToken: string;

  beforeAll(async () => {
    server = await startServerProcess({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
      TABLE_NAME: unique('sdk-delta'),
      INIT_ADMIN_API_TOKENS: adminSecret,
    });
    await admin('POST', '/api/admin/projects', { id: project, name: project });
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

  /** A feature switched on in development with one 100 % rollout (using `segments`, if any). */
  async function feature(segments: number[] = []): Promise<string> {
    const name = unique('flag');
    await admin('POST', `/api/admin/projects/${project}/features`, { name });
    await admin('POST', `${featurePath(name)}/environments/development/strategies`, {
      name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: '' }, constraints: [], segments,
    });
    await admin('POST', `${featurePath(name)}/environments/development/on`);
    return name;
  }

  const segmentBody = (name: string, users: string[]) => ({ name, constraints: [{ contextName: 'userId', operator: 'IN', values: users }] });

  interface Sdk {
    unleash: Unleash;
    errors: unknown[];
    /** Resolves once `check` holds, looked at after every update the SDK applies. */
    until(check: () => boolean, what: string): Promise<void>;
  }

  /** Starts an SDK in `mode`, waits for its first sync, runs `run`, and always destroys it. */
  async function withSdk(mode: Mode, run: (sdk: Sdk) => Promise<void>): Promise<void> {
    const unleash = initialize({
      url: `${server.url}/api`,
      appName: unique('delta-app'),
      customHeaders: { Authorization: clientToken },
      refreshInterval: 200,
      disableMetrics: true,
      projectName: project,
      storageProvider: new InMemStorageProvider(),
      experimentalMode: mode,
    });
    const errors: unknown[] = [];
    unleash.on('error', (error: unknown) => errors.push(error));
    const until = (check: () => boolean, what: string) =>
      new Promise<void>((resolve, reject) => {
        if (check()) return resolve();
        const timer = setTimeout(() => {
          unleash.off('changed', look);
          reject(new Error(`the SDK never saw ${what}: ${JSON.stringify(errors.map(String))}`));
        }, 20_000);
        function look() {
          if (!check()) return;
          clearTimeout(timer);
          unleash.off('changed', look);
          resolve();
        }
        unleash.on('changed', look);
      });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no sync: ${JSON.stringify(errors.map(String))}`)), 20_000);
        unleash.once('synchronized', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      await run({ unleash, errors, until });
    } finally {
      unleash.destroy();
    }
    expect(errors).toEqual([]);
  }

  it('delta polling: synchronises, then picks up a change, a removal and a segment change on later polls', async () => {
    const segment = (await admin('POST', '/api/admin/segments', segmentBody(unique('seg'), ['u1']))).id as number;
    const [segmented, toggled, archived] = [await feature([segment]), await feature(), await feature()];

    await withSdk({ type: 'polling', format: 'delta' }, async ({ unleash, until }) => {
      expect(unleash.isEnabled(segmented, { userId: 'u1' })).toBe(true);
      expect(unleash.isEnabled(segmented, { userId: 'u2' })).toBe(false);
      expect(unleash.isEnabled(toggled)).toBe(true);
      expect(unleash.isEnabled(archived)).toBe(true);

      await admin('POST', `${featurePath(toggled)}/environments/development/off`);
      await until(() => !unleash.isEnabled(toggled), `${toggled} switched off`);
      expect(unleash.getFeatureToggleDefinition(toggled)).toMatchObject({ enabled: false });

      await admin('DELETE', featurePath(archived));
      await until(() => unleash.getFeatureToggleDefinition(archived) === undefined, `${archived} archived`);
      expect(unleash.isEnabled(archived)).toBe(false);

      await admin('PUT', `/api/admin/segments/${segment}`, segmentBody(unique('seg'), ['u1', 'u2']));
      await until(() => unleash.isEnabled(segmented, { userId: 'u2' }), 'the segment take in u2');
      expect(unleash.isEnabled(segmented, { userId: 'u1' })).toBe(true);
      expect(unleash.isEnabled(segmented, { userId: 'u3' })).toBe(false);
    });
  });

  it('streaming: falls back to polling at once and serves the flags', async () => {
    const name = await feature();

    await withSdk({ type: 'streaming' }, async ({ unleash, until }) => {
      expect(unleash.isEnabled(name)).toBe(true);

      await admin('POST', `${featurePath(name)}/environments/development/off`);
      await until(() => !unleash.isEnabled(name), `${name} switched off`);
    });
  });
});
