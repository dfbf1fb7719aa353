import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { EVENTS, InMemoryStorageProvider, UnleashClient, type IConfig } from 'unleash-proxy-client';
import { OpenFeature } from '@openfeature/web-sdk';
import { UnleashWebProvider } from '@openfeature/unleash-web-provider';
import { getFrontendFlags } from '@unleash/nextjs';
import { formatSecret } from '../../lib/tokens/model.js';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';
import { adminOverHttp } from '../support/api.js';

/** Generous: the flags' cache and the metrics queues have windows of their own, and the machine is shared. */
const WAIT_MS = 30_000;

/**
 * The Frontend API proved with the browser SDKs themselves, run in Node against `npm start`:
 * unleash-proxy-client (what the React, Vue, Next.js… SDKs wrap) and OpenFeature's web SDK with
 * its Unleash provider. Every piece of data is made over HTTP with the admin API.
 */
describe('the browser SDKs against npm start’s Frontend API', () => {
  const adminSecret = formatSecret(['*'], '*');
  const project = unique('web');
  const flags = { on: '', off: '', forAlice: '', withVariant: '' };
  let server: StartedServer;
  let frontendToken: string;
  let clientToken: string;

  beforeAll(async () => {
    server = await startServerProcess({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
      TABLE_NAME: unique('frontend-clients'),
      INIT_ADMIN_API_TOKENS: adminSecret,
    });
    await admin('POST', '/api/admin/projects', { id: project, name: project });
    flags.on = await feature({ impressionData: true });
    flags.off = await feature({ on: false });
    flags.forAlice = await feature({ constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }] });
    flags.withVariant = await feature({});
    await admin('PUT', `${featurePath(flags.withVariant)}/environments/development/variants`, [
      { name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'sky' } },
    ]);
    const token = (type: string) => admin('POST', '/api/admin/api-tokens', {
      tokenName: unique(type), type, environment: 'development', projects: [project],
    });
    frontendToken = (await token('frontend')).secret;
    clientToken = (await token('client')).secret;
  });

  // Runs last (after hooks run as a stack): whatever beforeAll got to, even a start that timed out.
  afterAll(stopStartedServers);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  const admin = adminOverHttp(() => server.url, adminSecret);
  const featurePath = (name: string) => `/api/admin/projects/${project}/features/${name}`;

  /** A feature with one default strategy in development (with `constraints`), switched on unless `on` is false. */
  async function feature(options: { on?: boolean; impressionData?: boolean; constraints?: unknown[] }): Promise<string> {
    const name = unique('flag');
    await admin('POST', `/api/admin/projects/${project}/features`, { name, impressionData: options.impressionData ?? false });
    await admin('POST', `${featurePath(name)}/environments/development/strategies`, {
      name: 'default', parameters: {}, constraints: options.constraints ?? [],
    });
    if (options.on ?? true) await admin('POST', `${featurePath(name)}/environments/development/on`);
    return name;
  }

  /** The SDK's options for this server; refresh and metrics are off unless a test turns them on. */
  const sdkConfig = (extra: Partial<IConfig> = {}): IConfig => ({
    url: `${server.url}/api/frontend`,
    clientKey: frontendToken,
    appName: unique('web-app'),
    disableRefresh: true,
    disableMetrics: true,
    // Node has no window.localStorage; in Node the SDK would pick this one itself.
    storageProvider: new InMemoryStorageProvider(),
    ...extra,
  });

  /** Resolves on the first `event` after which `check` holds; rejects after WAIT_MS with what the SDK reported. */
  function until(client: UnleashClient, event: string, check: () => boolean, what: string, errors: unknown[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        client.off(event, look);
        reject(new Error(`the SDK never saw ${what}: ${JSON.stringify(errors)}`));
      }, WAIT_MS);
      function look() {
        if (!check()) return;
        clearTimeout(timer);
        client.off(event, look);
        resolve();
      }
      client.on(event, look);
    });
  }

  /** Runs `run` with a client built from `config`, recording its errors, and always stops it. */
  async function withClient(config: IConfig, run: (client: UnleashClient, errors: unknown[]) => Promise<void>): Promise<void> {
    const client = new UnleashClient(config);
    const errors: unknown[] = [];
    client.on(EVENTS.ERROR, (error: unknown) => errors.push(error));
    try {
      await run(client, errors);
    } finally {
      client.stop();
    }
  }

  describe('unleash-proxy-client', () => {
    it('starts as the README shows, evaluates the context\'s flags, variants and impressions, and follows a new context', async () => {
      await withClient(sdkConfig(), async (client, errors) => {
        const impressions: Array<{ featureName: string; enabled: boolean; eventType: string }> = [];
        client.on(EVENTS.IMPRESSION, (event: (typeof impressions)[number]) => impressions.push(event));

        // The README's order: the context first, then start, which resolves after the first fetch.
        void client.updateContext({ userId: 'alice' });
        await client.start();

        expect(errors).toEqual([]);
        expect(client.isReady()).toBe(true);
        expect(client.isEnabled(flags.on)).toBe(true);
        expect(client.isEnabled(flags.off)).toBe(false);
        expect(client.isEnabled(flags.forAlice)).toBe(true);
        expect(client.getVariant(flags.withVariant)).toEqual({
          name: 'blue', enabled: true, payload: { type: 'string', value: 'sky' }, feature_enabled: true, featureEnabled: true,
        });
        expect(client.getVariant(flags.on)).toMatchObject({ name: 'disabled', enabled: false, feature_enabled: true });
        expect(client.getVariant(flags.off)).toEqual({ name: 'disabled', enabled: false, feature_enabled: false });
        // Only the flag created with impressionData reports impressions: one for isEnabled, one for getVariant.
        expect(impressions.map(({ featureName, enabled, eventType }) => ({ featureName, enabled, eventType }))).toEqual([
          { featureName: flags.on, enabled: true, eventType: 'isEnabled' },
          { featureName: flags.on, enabled: true, eventType: 'getVariant' },
        ]);

        // A new context is fetched at once (start is done), and answers for that user.
        await client.updateContext({ userId: 'bob' });
        expect(client.isEnabled(flags.forAlice)).toBe(false);
        expect(client.isEnabled(flags.on)).toBe(true);
        expect(errors).toEqual([]);
      });
    });

    it('sends the context in a POST body with usePOSTrequests', async () => {
      await withClient(sdkConfig({ usePOSTrequests: true, context: { userId: 'alice' } }), async (client, errors) => {
        await client.start();

        expect(errors).toEqual([]);
        expect(client.isEnabled(flags.forAlice)).toBe(true);
        await client.updateContext({ userId: 'bob' });
        expect(client.isEnabled(flags.forAlice)).toBe(false);
      });
    });

    it('picks up an admin change on its next poll, and its metrics reach the feature\'s last seen', async () => {
      const name = await feature({});

      await withClient(sdkConfig({ disableRefresh: false, refreshInterval: 1, disableMetrics: false, metricsInterval: 1, metricsIntervalInitial: 0 }), async (client, errors) => {
        await client.start();
        expect(client.isEnabled(name)).toBe(true);

        // The count above goes out with the next metrics interval; the server answers it before `sent`.
        await until(client, EVENTS.SENT, () => true, 'its metrics sent', errors);
        // Listening before the change: a poll may bring it before the admin call has answered.
        const switchedOff = until(client, EVENTS.UPDATE, () => !client.isEnabled(name), `${name} switched off`, errors);
        await admin('POST', `${featurePath(name)}/environments/development/off`);
        await switchedOff;

        expect(errors).toEqual([]);
      });

      // Reports reach the table through the metrics queues' windows (ADR 15; 1 s under npm start).
      await expect.poll(async () => (await admin('GET', featurePath(name))).lastSeenAt, { interval: 200, timeout: WAIT_MS }).toEqual(expect.any(String));
      const development = (await admin('GET', featurePath(name))).environments.find((env: { name: string }) => env.name === 'development');
      expect(development.lastSeenAt).toEqual(expect.any(String));
    });

    it('reports the 403 a client token gets as an error, and never becomes ready', async () => {
      await withClient(sdkConfig({ clientKey: clientToken }), async (client, errors) => {
        await client.start();

        expect(errors).toEqual([{ type: 'HttpError', code: 403 }]);
        expect(client.isReady()).toBe(false);
        expect(client.isEnabled(flags.on)).toBe(false);
      });
    });

    it('serves @unleash/nextjs getFrontendFlags (server-side rendering) the user\'s flags', async () => {
      // Next.js apps call it on the server with the Frontend API's URL and a frontend token.
      const { toggles } = await getFrontendFlags({
        url: `${server.url}/api/frontend`, clientKey: frontendToken, appName: unique('nextjs'), context: { userId: 'alice' },
        storageProvider: new InMemoryStorageProvider(),
      });

      expect(toggles.map((toggle) => toggle.name).sort()).toEqual([flags.on, flags.forAlice, flags.withVariant].sort());
      expect(toggles.find((toggle) => toggle.name === flags.withVariant)?.variant).toMatchObject({ name: 'blue', payload: { type: 'string', value: 'sky' } });
    });
  });

  describe('OpenFeature web SDK with the Unleash web provider', () => {
    it('evaluates booleans and string variants for the context, and follows a context change', async () => {
      const provider = new UnleashWebProvider(sdkConfig());
      try {
        // The provider (0.1.1) starts its client without the context set before it is ready, so the
        // context comes after: setContext waits for the provider's fetch for it.
        await OpenFeature.setProviderAndWait(provider);
        await OpenFeature.setContext({ userId: 'alice' });
        const client = OpenFeature.getClient();

        expect(client.providerStatus).toBe('READY');
        expect(client.getBooleanValue(flags.on, false)).toBe(true);
        expect(client.getBooleanValue(flags.off, true)).toBe(false);
        expect(client.getBooleanValue(flags.forAlice, false)).toBe(true);
        expect(client.getStringDetails(flags.withVariant, 'default')).toMatchObject({ value: 'sky', variant: 'blue' });
        // A flag without a variant gives the caller's default.
        expect(client.getStringValue(flags.on, 'default')).toBe('default');

        await OpenFeature.setContext({ userId: 'bob' });
        expect(client.getBooleanValue(flags.forAlice, true)).toBe(false);
        expect(client.getBooleanValue(flags.on, false)).toBe(true);
      } finally {
        await OpenFeature.close();
      }
    });
  });
});
