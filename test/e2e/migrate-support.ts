/**
 * What the migration tests share: the real Unleash with a personal access token (Unleash takes a
 * feature import only from a person or a service account), `npm start` on a fresh table, and the
 * official Node SDK evaluating every flag against two servers with a token each.
 */
import { Unleash, InMemStorageProvider, type Context } from 'unleash-client';
import { inject } from 'vitest';
import type { ReferencePostgres, ReferenceUnleash } from '../../local/unleash-reference.js';
import { startUnleash } from '../../local/unleash-reference.js';
import { formatSecret } from '../../lib/tokens/model.js';
import { startServerProcess, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';

export interface UnleashWithPat extends ReferenceUnleash {
  /** A personal access token of the first admin. */
  pat: string;
}

export async function startUnleashWithPat(postgres: ReferencePostgres, label: string): Promise<UnleashWithPat> {
  const unleash = await startUnleash(postgres, { label });
  try {
    const login = await fetch(`${unleash.url}/auth/simple/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: unleash.adminPassword }),
    });
    if (!login.ok) throw new Error(`Unleash login answered ${login.status}`);
    const cookie = login.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
    const created = await fetch(`${unleash.url}/api/admin/user/tokens`, {
      method: 'POST', headers: { 'content-type': 'application/json', cookie },
      // Far in the future, so the token never expires during a run whatever the date.
      body: JSON.stringify({ description: 'migrate', expiresAt: '2999-01-01T00:00:00.000Z' }),
    });
    if (!created.ok) throw new Error(`Unleash personal access token answered ${created.status}: ${await created.text()}`);
    return { ...unleash, pat: ((await created.json()) as { secret: string }).secret };
  } catch (error) {
    await unleash.stop();
    throw error;
  }
}

export interface OurServer {
  url: string;
  adminToken: string;
  server: StartedServer;
}

/** `npm start` on the run's DynamoDB engine with a table of its own; stopStartedServers (afterAll) ends it. */
export async function startOurServer(label: string): Promise<OurServer> {
  const adminToken = formatSecret(['*'], '*');
  const server = await startServerProcess({
    DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
    TABLE_NAME: unique(label),
    INIT_ADMIN_API_TOKENS: adminToken,
  });
  return { url: server.url, adminToken, server };
}

/** Contexts the SDKs evaluate with: the seed's users, regions, plans, addresses and app names. */
export function sdkContexts(prefix: string): Context[] {
  const users = ['alice', 'bob', 'carol', '7', '42', 'dave', '100', 'erin'];
  return users.flatMap((userId, index) => [
    { userId, sessionId: `s-${index}`, remoteAddress: index % 2 === 0 ? '10.0.0.1' : '192.168.1.20', properties: { [`${prefix}Region`]: ['eu', 'us', 'apac'][index % 3] as string, [`${prefix}Plan`]: ['pro', 'enterprise', '7', '2.3.4'][index % 4] as string } },
    { userId, appName: 'web', properties: { [`${prefix}Region`]: 'eu', [`${prefix}Plan`]: '10.0.0-beta.1' } },
  ]);
}

export interface Evaluation {
  flag: string;
  context: number;
  enabled: boolean;
  variant: string;
  payload: string;
}

/**
 * What the official Node SDK answers for every flag it got and every context, from a server
 * with a token: an SDK started, synchronised once and destroyed whatever happens.
 */
export async function evaluateWithSdk(url: string, token: string, contexts: Context[]): Promise<Evaluation[]> {
  const unleash = new Unleash({
    url: `${url}/api`,
    appName: unique('migrate-sdk'),
    customHeaders: { Authorization: token },
    disableMetrics: true,
    refreshInterval: 60_000,
    storageProvider: new InMemStorageProvider(),
  });
  const errors: unknown[] = [];
  unleash.on('error', (error: unknown) => errors.push(error));
  try {
    await new Promise<void>((resolve, reject) => {
      unleash.once('synchronized', () => resolve());
      unleash.once('error', (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))));
    });
    const flags = unleash.getFeatureToggleDefinitions().map((definition) => definition.name).sort();
    return flags.flatMap((flag) => contexts.map((context, index) => {
      const variant = unleash.getVariant(flag, context);
      return { flag, context: index, enabled: unleash.isEnabled(flag, context), variant: variant.name, payload: JSON.stringify(variant.payload ?? null) };
    }));
  } finally {
    unleash.destroy();
  }
}
