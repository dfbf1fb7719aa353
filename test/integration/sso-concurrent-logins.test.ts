import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { keys } from '../../lib/store/table-design.js';
import { apiClient, type ApiResponse } from '../support/api.js';
import { namedAdminToken } from '../support/access.js';
import { oidcSettingsFor, ProviderBrowser, startIdentityProvider, type IdentityProvider } from '../support/identity-provider.js';
import { servicesOn, testConfig, unique } from '../support/services.js';
import { cookiePair } from '../support/sessions.js';

/**
 * Single sign-on logins at the same moment: one person's two tabs, and a crowd's first logins
 * that all join the same groups. Each part runs on an AWS-like engine of its own (DynamoDB's
 * conflict rules: a single-item write to an item a transaction holds is refused, two
 * transactions on one item cancel one another) and a table of its own, since the OIDC settings
 * are one item per table.
 */
const UNLEASH_URL = 'http://localhost:4242';

interface Login {
  services: Services;
  call: ReturnType<typeof apiClient>;
  token: string;
  idp: IdentityProvider;
}

async function loginsOn(endpoint: string, settings: Record<string, unknown>): Promise<Login> {
  const tableName = unique('sso-concurrent');
  await prepareLocalTable({ region: 'local', endpoint }, tableName);
  const services = servicesOn(testConfig({
    TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, SECRET_KEY: randomBytes(32).toString('base64url'), UNLEASH_URL,
  }));
  await services.firstStart.ensure();
  const call = apiClient(services);
  const token = await namedAdminToken(services, unique('sso-admin'));
  const idp = await startIdentityProvider({ redirectUris: [`${UNLEASH_URL}/auth/oidc/callback`], postLogoutRedirectUris: [`${UNLEASH_URL}/signed-out`] });
  const res = await call({ method: 'POST', path: '/api/admin/auth/oidc/settings', token, body: oidcSettingsFor(idp, settings) });
  expect(res.status, res.text).toBe(200);
  return { services, call, token, idp };
}

/** The service's start, the provider's sign-in as `login`, and the browser back at the callback. */
async function atCallback({ call }: Login, login: string): Promise<{ callbackUrl: URL; cookie: string }> {
  const start = await call({ method: 'GET', path: '/auth/oidc/login' });
  expect(start.status, start.text).toBe(302);
  const callbackUrl = await new ProviderBrowser(UNLEASH_URL).signIn(start.headers.location as string, login);
  return { callbackUrl, cookie: cookiePair(start.cookies[0]) };
}

const finish = ({ call }: Login, { callbackUrl, cookie }: { callbackUrl: URL; cookie: string }): Promise<ApiResponse> =>
  call({ method: 'GET', path: `${callbackUrl.pathname}${callbackUrl.search}`, headers: { Cookie: cookie } });

const sessionOf = (res: ApiResponse): string | undefined => res.cookies.find((c) => c.startsWith('unleash-session='));

/** Where a login that handed out no session sent the browser: the login page and its message. */
const refusalOf = (res: ApiResponse): string => decodeURIComponent(String(res.headers.location ?? res.status));

const me = ({ call }: Login, cookie: string) => call({ method: 'GET', path: '/api/admin/user', headers: { Cookie: cookiePair(cookie) } });

describe('one person’s two tabs finishing their first single sign-on login at once', () => {
  let engine: AwsLikeEngine;
  let logins: Login;
  /** The next TransactWriteItems is held in flight (its items held) until the test lets it go. */
  let gate: { arrived: () => void; released: Promise<void> } | undefined;
  /** Sees every request as it reaches the engine, before the engine's conflict checks. */
  let onRequest: ((operation: string, body: Record<string, any>) => void) | undefined;

  beforeAll(async () => {
    engine = await startAwsLikeDynamoDb({
      target: inject('dynamodbLocal').endpoint,
      transactionHoldMs: 0,
      hold: async (operation) => {
        const held = gate;
        if (operation !== 'TransactWriteItems' || !held) return;
        gate = undefined;
        held.arrived();
        await held.released;
      },
      faultWhen: (operation, body) => {
        onRequest?.(operation, body);
        return false;
      },
    });
    logins = await loginsOn(engine.endpoint, { autoCreate: false });
  });

  afterAll(async () => {
    gate?.arrived();
    await logins?.idp.close();
    await engine?.stop();
  });

  const holdNextTransaction = () => {
    let arrived: () => void = () => undefined;
    let release: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (arrived = resolve));
    gate = { arrived, released: new Promise<void>((resolve) => (release = resolve)) };
    return { holding, release };
  };

  it('both get in when one tab’s login writes the user while the other tab’s link of it is still committing', async () => {
    const login = unique('two-tabs');
    const email = `${login}@example.com`;
    const made = await logins.call({ method: 'POST', path: '/api/admin/user-admin', token: logins.token, body: { email, rootRole: 'Viewer' } });
    expect(made.status, made.text).toBe(201);
    const userKey = keys.user(made.body.id as number);
    logins.idp.accounts.set(login, { email });
    const [first, second] = await Promise.all([atCallback(logins, login), atCallback(logins, login)]);
    const conflictsBefore = engine.stats().singleItemConflicts;

    // The first tab links the identity; its transaction is held while DynamoDB would still be committing it.
    const link = holdNextTransaction();
    const firstAnswer = finish(logins, first);
    await link.holding;
    // The second tab finds the link and records its login on the user the transaction holds.
    const bookkeeping = new Promise<void>((resolve) => {
      onRequest = (operation, body) => {
        if (operation === 'UpdateItem' && body.Key?.sk?.S === userKey.sk) {
          onRequest = undefined;
          resolve();
        }
      };
    });
    const secondAnswer = finish(logins, second);
    await bookkeeping;
    // The engine has refused that write (its check runs before any macrotask); the link commits.
    await new Promise((resolve) => setImmediate(resolve));
    link.release();
    const answers = await Promise.all([firstAnswer, secondAnswer]);

    expect(engine.stats().singleItemConflicts - conflictsBefore).toBe(1);
    for (const res of answers) {
      const session = sessionOf(res);
      expect(session, refusalOf(res)).toBeDefined();
      expect((await me(logins, session!)).body.user).toMatchObject({ id: made.body.id });
    }
    expect((await logins.services.users.get(made.body.id as number)).ssoIdentities).toEqual([{ issuer: logins.idp.issuer, subject: login }]);
  });
});
