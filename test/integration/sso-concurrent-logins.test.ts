import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { keys } from '../../lib/store/table-design.js';
import { oidc } from '../../lib/composition/slices/oidc.js';
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
  let releaseHeld: () => void = () => undefined;

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
    // A test that failed midway may have left a transaction held: let it go before stopping.
    releaseHeld();
    await logins?.idp.close();
    await engine?.stop();
  });

  const holdNextTransaction = () => {
    let arrived: () => void = () => undefined;
    let release: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (arrived = resolve));
    gate = { arrived, released: new Promise<void>((resolve) => (release = resolve)) };
    releaseHeld = release;
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

/**
 * Monday, 9:00: a crowd's first single sign-on logins at once, each creating its user and syncing
 * them into the groups their provider names. Every one joins the same "everyone" group, and one of
 * a few team groups; each join is a transaction on the group item and the groups' revision item
 * (docs/adr/0027-groups-revision.md), which DynamoDB cancels while another one holds either item.
 * Each login is the store's side of a callback (`OidcLoginService.admit`, the claims as the
 * provider's verified ID token gives them): in the cloud each runs in a container of its own, so
 * the provider's exchange, CPU work that would pile up in this one process, is left out, and so is
 * the function's deadline, whose wall-clock seconds on a shared machine measure its load rather
 * than the logins' conflicts. Latency is injected (seeded) so requests interleave as across
 * containers. SSO_BURST_PEOPLE sets the crowd (50 by default).
 */
describe('a burst of first single sign-on logins syncing the same groups', () => {
  const PEOPLE = Number(process.env.SSO_BURST_PEOPLE ?? 50);
  const TEAMS = 3;
  let engine: AwsLikeEngine;
  let logins: Login;
  const transactionsByKind = new Map<string, number>();

  beforeAll(async () => {
    engine = await startAwsLikeDynamoDb({
      target: inject('dynamodbLocal').endpoint, seed: 29, latencyRate: 0.5, latencyMs: 20, transactionHoldMs: 20,
      faultWhen: (operation, body) => {
        if (operation === 'TransactWriteItems') {
          const partitions = (body.TransactItems as Record<string, any>[]).map((action) => {
            const detail = Object.values(action)[0] as Record<string, any>;
            return String((detail.Item ?? detail.Key)?.pk?.S);
          });
          const kind = partitions.includes('GROUPS') ? 'group' : partitions.includes('USERS') ? 'user' : 'other';
          transactionsByKind.set(kind, (transactionsByKind.get(kind) ?? 0) + 1);
        }
        return false;
      },
    });
    logins = await loginsOn(engine.endpoint, { autoCreate: true, enableGroupSyncing: true, groupJsonPath: 'groups' });
  }, 120_000);

  afterAll(async () => {
    await logins?.idp.close();
    await engine?.stop();
  });

  it(`${PEOPLE} people's first logins at once each get in, and each joins their groups once`, async () => {
    const createGroup = async (name: string, mapping: string) => {
      const res = await logins.call({ method: 'POST', path: '/api/admin/groups', token: logins.token, body: { name: unique(name), mappingsSSO: [mapping], rootRole: 2 } });
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };
    const everyone = await createGroup('everyone', 'staff');
    const teams: number[] = [];
    for (let team = 0; team < TEAMS; team += 1) teams.push(await createGroup(`team-${team}`, `team-${team}`));
    const { oidcLogin } = logins.services.composition.once(oidc);
    const settings = (await logins.services.oidcSettings.forLogin())!;
    const people = Array.from({ length: PEOPLE }, (_, index) => ({ login: unique(`monday-${index}`), team: index % TEAMS }));
    const before = engine.stats();
    transactionsByKind.clear();
    const startedAt = Date.now();

    const admit = ({ login, team }: (typeof people)[number]) => oidcLogin.admit(
      { iss: logins.idp.issuer, sub: login, email: `${login}@example.com`, email_verified: true, groups: ['staff', `team-${team}`], idToken: `id-token-of-${login}` },
      settings,
    );
    const outcomes = await Promise.all(people.map((person) => admit(person).then(() => 'logged in', (error: unknown) => `${(error as Error).constructor.name}: ${(error as Error).message} (${((error as Error).cause as Error | undefined)?.name ?? 'no cause'})`)));

    const after = engine.stats();
    const refused = outcomes.filter((outcome) => outcome !== 'logged in');
    const figures = {
      burstMs: Date.now() - startedAt, people: PEOPLE, loggedIn: PEOPLE - refused.length, refused: refused.length,
      groupJoins: PEOPLE * 2, groupTransactionsSent: transactionsByKind.get('group') ?? 0, userTransactionsSent: transactionsByKind.get('user') ?? 0,
      cancelledTransactions: after.cancelledTransactions - before.cancelledTransactions,
      singleItemConflicts: after.singleItemConflicts - before.singleItemConflicts,
      throttled: after.throttled - before.throttled,
      refusals: Object.fromEntries([...new Set(refused)].map((message) => [message, refused.filter((other) => other === message).length])),
    };
    console.log(`first SSO logins at once (seed 29, half the requests 20 ms late, transactions held 20 ms): ${JSON.stringify(figures)}`);

    expect(refused).toEqual([]);
    const members = async (id: number) => ((await logins.call({ method: 'GET', path: `/api/admin/groups/${id}`, token: logins.token })).body.users as unknown[]).length;
    expect(await members(everyone)).toBe(PEOPLE);
    for (const [team, id] of teams.entries()) expect(await members(id)).toBe(people.filter((person) => person.team === team).length);
  }, 300_000);
});
