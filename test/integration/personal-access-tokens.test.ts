import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GROUP_TABLE_ACCESS } from '../../infra/table-access.js';
import { GROUPS } from '../../lib/http/route.js';
import { patSchema, patsSchema } from '../../lib/personal-access-tokens/schemas.js';
import { PERSONAL_TOKEN_LIMIT, SEEN_WRITE_INTERVAL_MS } from '../../lib/personal-access-tokens/model.js';
import { personalTokenRemovals } from '../../lib/personal-access-tokens/dynamo-store.js';
import { transactWriteDetailed } from '../../lib/store/transact.js';
import { NotFound } from '../../lib/errors.js';
import { keys } from '../../lib/store/table-design.js';
import { hashSecret } from '../../lib/tokens/model.js';
import { apiClient, type ApiResponse } from '../support/api.js';
import { adminToken, servicesOn, testConfig, unique } from '../support/services.js';
import { cookiePair } from '../support/sessions.js';
import { sessions } from '../../lib/composition/session-edge.js';
import { watchWrites, type WriteWatch } from '../fuzz/store-watch.js';
import type { RootRoleName } from '../../lib/roles/model.js';

/** The services' clock: tests move it instead of waiting. */
let now = new Date();
const services = servicesOn(testConfig(), { now: () => now });
const call = apiClient(services);
let apiToken: string;
beforeAll(async () => {
  apiToken = await adminToken(services);
});

const DAY_MS = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(now.getTime() + days * DAY_MS).toISOString();

/**
 * A person with a session: their user and session cookie, the session started as a login starts
 * it (no password hashed or checked, which takes seconds on a loaded machine; login.test.ts holds logins).
 */
async function person(role: RootRoleName = 'Admin') {
  const username = unique(`person-${role.toLowerCase()}`);
  const user = await services.users.create({ username, email: `${username}@example.com`, name: username, rootRole: role }, 'test');
  return { user, cookie: cookiePair(await services.composition.once(sessions).start(user)) };
}

const createPat = (cookie: string, body: unknown) => call({ method: 'POST', path: '/api/admin/user/tokens', headers: { Cookie: cookie }, body });
const listPats = (cookie: string) => call({ method: 'GET', path: '/api/admin/user/tokens', headers: { Cookie: cookie } });
const deletePat = (cookie: string, id: number | string) => call({ method: 'DELETE', path: `/api/admin/user/tokens/${id}`, headers: { Cookie: cookie } });
const withPat = (secret: string, method: string, path: string, body?: unknown) => call({ method, path, token: secret, body });

async function newPat(cookie: string, description = unique('terraform')): Promise<{ id: number; secret: string }> {
  const res = await createPat(cookie, { description, expiresAt: inDays(30) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const tableItem = async (key: { pk: string; sk: string }) =>
  (await services.composition.store.db.send(new GetCommand({ TableName: services.config.tableName, Key: key, ConsistentRead: true }))).Item;

describe('creating and listing personal access tokens (/api/admin/user/tokens)', () => {
  it("answers the secret once, in Unleash's shape, and lists the token without it; only the secret's hash is stored", async () => {
    now = new Date();
    const { user, cookie } = await person();
    const expiresAt = inDays(30);

    const created = await createPat(cookie, { description: 'terraform', expiresAt });
    const listed = await listPats(cookie);

    expect(created.status).toBe(201);
    expect(patSchema.safeParse(created.body).success).toBe(true);
    expect(created.body).toMatchObject({ description: 'terraform', expiresAt, userId: user.id, createdAt: now.toISOString(), seenAt: null });
    expect(created.body.secret).toMatch(/^user:[0-9a-f]{56}$/);
    expect(created.headers.location).toBe(`api/admin/user/tokens/${created.body.id}`);
    expect(patsSchema.safeParse(listed.body).success).toBe(true);
    const { secret, ...shown } = created.body;
    expect(listed.body).toEqual({ pats: [shown] });
    const stored = [await tableItem(keys.personalTokensOf(user.id)), await tableItem(keys.personalTokenBySecret(hashSecret(secret)))];
    expect(stored.every(Boolean)).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(secret.slice('user:'.length));
  });

  it('lists only the caller\'s own tokens, in id order', async () => {
    const alice = await person();
    const bob = await person('Viewer');
    const first = await newPat(alice.cookie);
    const second = await newPat(alice.cookie);
    const bobs = await newPat(bob.cookie);

    const listed = (await listPats(alice.cookie)).body.pats.map((pat: { id: number }) => pat.id);

    expect(listed).toEqual([first.id, second.id]);
    expect(second.id).toBeGreaterThan(first.id);
    expect((await listPats(bob.cookie)).body.pats.map((pat: { id: number }) => pat.id)).toEqual([bobs.id]);
  });

  it("refuses an empty description, an expiry in the past or missing, and a description the user already has, in Unleash's words", async () => {
    now = new Date();
    const { cookie } = await person();
    await newPat(cookie, 'ci');

    const empty = await createPat(cookie, { description: '  ', expiresAt: inDays(1) });
    const past = await createPat(cookie, { description: 'old', expiresAt: inDays(-1) });
    const missing = await createPat(cookie, { description: 'forever' });
    const notADate = await createPat(cookie, { description: 'soon', expiresAt: 'soon' });
    const twice = await createPat(cookie, { description: 'ci', expiresAt: inDays(1) });

    expect([empty.status, past.status, missing.status, notADate.status, twice.status]).toEqual([400, 400, 400, 400, 409]);
    expect(empty.body.message).toContain('PAT description cannot be empty.');
    expect(past.body.message).toContain('The expiry date should be in future.');
    expect(missing.body.message).toContain('expiresAt');
    expect(twice.body).toMatchObject({ name: 'NameExistsError', message: 'PAT description already exists.' });
    expect((await listPats(cookie)).body.pats).toHaveLength(1);
  });

  it(`keeps at most ${PERSONAL_TOKEN_LIMIT} per user, also when more are created at once`, async () => {
    const { cookie } = await person();

    const answers = await Promise.all(Array.from({ length: PERSONAL_TOKEN_LIMIT + 3 }, (_, index) => createPat(cookie, { description: `token ${index}`, expiresAt: inDays(5) })));

    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(PERSONAL_TOKEN_LIMIT);
    const refused = answers.filter((res) => res.status !== 201);
    expect(refused.map((res) => [res.status, res.body.message])).toEqual(refused.map(() => [403, `Too many PATs (${PERSONAL_TOKEN_LIMIT}) already exist for this user.`]));
    expect((await listPats(cookie)).body.pats).toHaveLength(PERSONAL_TOKEN_LIMIT);
  });

  it("refuses an API token: it is no user (Unleash's 403)", async () => {
    const list = await call({ method: 'GET', path: '/api/admin/user/tokens', token: apiToken });
    const create = await call({ method: 'POST', path: '/api/admin/user/tokens', token: apiToken, body: { description: 'x', expiresAt: inDays(1) } });
    const remove = await call({ method: 'DELETE', path: '/api/admin/user/tokens/1', token: apiToken });

    for (const res of [list, create, remove]) expect([res.status, res.body.message]).toEqual([403, 'PATs require an authenticated user.']);
  });

  it('records pat-created and pat-deleted events naming the user who acted', async () => {
    const { user, cookie } = await person();
    const pat = await newPat(cookie);
    expect((await deletePat(cookie, pat.id)).status).toBe(200);

    const events = await call({ method: 'GET', path: `/api/admin/search/events?type=IS_ANY_OF:pat-created,pat-deleted&limit=1000`, token: apiToken });

    const mine = events.body.events.filter((event: { summary: string }) => event.summary.includes(`pat:${pat.id}**`));
    expect(mine.map((event: { type: string; createdBy: string }) => [event.type, event.createdBy]).sort()).toEqual([
      ['pat-created', user.username], ['pat-deleted', user.username],
    ]);
  });
});

describe('authenticating with a personal access token', () => {
  it('acts as its user on the admin API, with or without Bearer, recorded under their name', async () => {
    const { user, cookie } = await person();
    const { secret } = await newPat(cookie);
    const project = unique('pat-project');

    const me = await withPat(secret, 'GET', '/api/admin/user');
    const bearer = await call({ method: 'GET', path: '/api/admin/projects', headers: { Authorization: `Bearer ${secret}` } });
    const created = await withPat(secret, 'POST', '/api/admin/projects', { id: project, name: project });

    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: user.id, username: user.username });
    expect(me.body.permissions).toContainEqual({ permission: 'ADMIN' });
    expect(bearer.status).toBe(200);
    expect(created.status, created.text).toBe(201);
    const events = await call({ method: 'GET', path: `/api/admin/search/events?project=IS:${project}`, token: apiToken });
    expect(events.body.events.map((event: { createdBy: string }) => event.createdBy)).toContain(user.username);
  });

  it("holds the user's root role, read on each request: a Viewer's token reads and is refused changes, a role changed holds at once", async () => {
    const { user, cookie } = await person('Editor');
    const { secret } = await newPat(cookie);
    const project = unique('editor-project');

    const asEditor = await withPat(secret, 'POST', '/api/admin/projects', { id: project, name: project });
    const adminOnly = await withPat(secret, 'GET', '/api/admin/user-admin');
    await services.users.update(user.id, { rootRole: 'Viewer' }, 'test');
    const asViewer = await withPat(secret, 'POST', '/api/admin/projects', { id: `${project}-2`, name: `${project}-2` });
    const read = await withPat(secret, 'GET', `/api/admin/projects/${project}`);

    expect(asEditor.status, asEditor.text).toBe(201);
    expect(adminOnly.status).toBe(403);
    expect(asViewer.status).toBe(403);
    expect(read.status).toBe(200);
  });

  it('is refused (401) once deleted, on every container at once, while the user\'s other tokens keep working', async () => {
    const { cookie } = await person();
    const kept = await newPat(cookie);
    const deleted = await newPat(cookie);
    // Another container: its own composition on the same table.
    const otherContainer = apiClient(servicesOn(testConfig()));
    expect((await otherContainer({ method: 'GET', path: '/api/admin/projects', token: deleted.secret })).status).toBe(200);

    const removal = await deletePat(cookie, deleted.id);

    expect(removal.status).toBe(200);
    expect((await otherContainer({ method: 'GET', path: '/api/admin/projects', token: deleted.secret })).status).toBe(401);
    expect((await withPat(deleted.secret, 'GET', '/api/admin/projects')).status).toBe(401);
    expect((await withPat(kept.secret, 'GET', '/api/admin/projects')).status).toBe(200);
    expect((await deletePat(cookie, deleted.id)).status).toBe(404);
  });

  it("cannot delete another user's token: 404, and it keeps working", async () => {
    const owner = await person();
    const other = await person();
    const pat = await newPat(owner.cookie);

    const res = await deletePat(other.cookie, pat.id);
    const notANumber = await deletePat(other.cookie, 'abc');

    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No PAT found.');
    expect(notANumber.status).toBe(400);
    expect((await withPat(pat.secret, 'GET', '/api/admin/projects')).status).toBe(200);
  });

  it('is refused from its expiry on', async () => {
    now = new Date();
    const { cookie } = await person();
    const res = await createPat(cookie, { description: 'short', expiresAt: inDays(1) });
    const { secret } = res.body;

    const before = await withPat(secret, 'GET', '/api/admin/projects');
    now = new Date(Date.parse(res.body.expiresAt));
    const at = await withPat(secret, 'GET', '/api/admin/projects');
    now = new Date();

    expect(before.status).toBe(200);
    expect(at.status).toBe(401);
  });

  it('is refused once its user is deleted', async () => {
    const { user, cookie } = await person();
    const { secret } = await newPat(cookie);

    await services.users.delete(user.id, 'test');

    expect((await withPat(secret, 'GET', '/api/admin/projects')).status).toBe(401);
  });

  it("is removed from the table with its user, every one of the user's tokens, in the user's delete", async () => {
    const { user, cookie } = await person();
    const tokens = [await newPat(cookie), await newPat(cookie)];
    expect(await tableItem(keys.personalTokensOf(user.id))).toBeDefined();

    await services.users.delete(user.id, 'test');

    expect(await tableItem(keys.personalTokensOf(user.id))).toBeUndefined();
    for (const { secret } of tokens) expect(await tableItem(keys.personalTokenBySecret(hashSecret(secret)))).toBeUndefined();
  });

  it("does not remove a different set of tokens with the same count: a token deleted and another made after the user's delete read them fails that delete", async () => {
    const { user, cookie } = await person();
    const [first] = [await newPat(cookie), await newPat(cookie)];
    const { db } = services.composition.store;
    const removals = await personalTokenRemovals(db, services.config.tableName, user.id);

    expect((await deletePat(cookie, first.id)).status).toBe(200);
    const madeAfter = await newPat(cookie);
    expect((await tableItem(keys.personalTokensOf(user.id)))?.tokenCount).toBe(2);

    expect(await transactWriteDetailed(db, removals)).toEqual({ ok: false, failedIndex: 0 });
    expect(await tableItem(keys.personalTokenBySecret(hashSecret(madeAfter.secret)))).toBeDefined();
    await services.users.delete(user.id, 'test');
    expect(await tableItem(keys.personalTokensOf(user.id))).toBeUndefined();
    expect(await tableItem(keys.personalTokenBySecret(hashSecret(madeAfter.secret)))).toBeUndefined();
  });

  it('cannot be made for a user deleted meanwhile: 404, and nothing is stored', async () => {
    const { user } = await person();
    await services.users.delete(user.id, 'test');

    const refused = services.personalTokens.create(user.id, { description: 'late', expiresAt: inDays(3) }, 'test');

    await expect(refused).rejects.toBeInstanceOf(NotFound);
    expect(await tableItem(keys.personalTokensOf(user.id))).toBeUndefined();
  });

  it('answers 401 for a user: secret nobody made, and is no token for the SDK API', async () => {
    const { cookie } = await person();
    const { secret } = await newPat(cookie);

    const unknown: ApiResponse = await withPat(`user:${'0'.repeat(56)}`, 'GET', '/api/admin/projects');
    const sdk = await withPat(secret, 'GET', '/api/client/features');

    expect(unknown.status).toBe(401);
    expect(unknown.body.name).toBe('AuthenticationRequired');
    expect(sdk.status).toBe(401);
  });

  it(`records when it was last seen, writing it again only after ${SEEN_WRITE_INTERVAL_MS / 1000} s`, async () => {
    now = new Date();
    const { cookie } = await person();
    const { id, secret } = await newPat(cookie);
    const seenAt = async () => (await listPats(cookie)).body.pats.find((pat: { id: number }) => pat.id === id).seenAt;
    const firstUse = now.toISOString();

    await withPat(secret, 'GET', '/api/admin/projects');
    const afterFirst = await seenAt();
    now = new Date(now.getTime() + SEEN_WRITE_INTERVAL_MS / 2);
    await withPat(secret, 'GET', '/api/admin/projects');
    const withinInterval = await seenAt();
    now = new Date(now.getTime() + SEEN_WRITE_INTERVAL_MS);
    await withPat(secret, 'GET', '/api/admin/projects');
    const afterInterval = await seenAt();

    expect(afterFirst).toBe(firstUse);
    expect(withinInterval).toBe(firstUse);
    expect(afterInterval).toBe(now.toISOString());
    now = new Date();
  });
});

describe('what authenticating with a personal access token writes', () => {
  let watch: WriteWatch | undefined;
  afterAll(async () => {
    await watch?.close();
  });

  /** IAM's StringLike on dynamodb:LeadingKeys: `*` matches any run of characters. */
  const grants = (pattern: string, partition: string) => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(partition);

  it("only its last use, in its own partition, which every admin function's grant allows (the state export's too)", async () => {
    const { endpoint } = inject('dynamodb');
    watch = await watchWrites(endpoint);
    const clock = { now: new Date() };
    const watched = servicesOn(testConfig({ DYNAMODB_ENDPOINT: watch.endpoint }), { now: () => clock.now });
    const watchedCall = apiClient(watched);
    const user = await watched.users.create({ username: unique('exporter'), rootRole: 'Admin' }, 'test');
    const { secret } = await watched.personalTokens.create(user.id, { description: 'export', expiresAt: inDays(3) }, 'test');
    watch.takeWrites();

    const exported = await watchedCall({ method: 'GET', path: '/api/admin/state/export', token: secret });
    const writes = watch.takeWrites();

    expect(exported.status).toBe(200);
    const partition = keys.personalTokenBySecret(hashSecret(secret)).pk;
    expect(writes).toEqual([`UpdateItem ${partition}`]);
    for (const group of GROUPS.filter((name) => name !== 'client' && name !== 'frontend')) {
      const access = GROUP_TABLE_ACCESS[group];
      expect(access.writes, group).toContain('dynamodb:UpdateItem');
      expect(access.writablePartitions === undefined || access.writablePartitions.some((pattern) => grants(pattern, partition)), group).toBe(true);
    }
  });
});
