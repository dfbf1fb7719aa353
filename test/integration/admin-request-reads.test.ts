import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sessions } from '../../lib/composition/session-edge.js';
import { ROOT_ROLE } from '../../lib/roles/model.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { GROUPS_REVISION_MOVE_SETTLE_MS, GROUPS_REVISION_SETTLE_MS } from '../../lib/store/groups-revision.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { keys } from '../../lib/store/table-design.js';
import type { Services } from '../../local/app-services.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { apiClient } from '../support/api.js';
import { adminToken, servicesOn, testConfig, unique } from '../support/services.js';
import { logIn, userWithPassword } from '../support/sessions.js';

/*
 * What an admin request costs to learn who calls (docs/adr/0027-groups-revision.md): the session,
 * its user and the groups' revision in one strongly consistent BatchGetItem, the groups read only
 * when their revision moved. And that every change that decides a person's root role (a group's
 * role, its members, its deletion, a single sign-on sync, the user's own role, a password change,
 * a logout) still holds from the next request on a container that keeps the groups: a writer of
 * group items that forgot to move the revision fails here.
 */
let engine: AwsLikeEngine;

beforeAll(async () => {
  // An engine of this file's own, so that its read units are this file's alone.
  engine = await startAwsLikeDynamoDb({ target: inject('dynamodbLocal').endpoint });
}, 120_000);

afterAll(async () => {
  await engine?.stop();
});

async function newTable(): Promise<string> {
  const tableName = unique('admin-reads');
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodbLocal').endpoint }, tableName);
  return tableName;
}

/** A container on `tableName`, as another Lambda container would be; `aheadMs` moves its clock on. */
function containerOn(tableName: string, aheadMs = 0): Services {
  return servicesOn(testConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: engine.endpoint }), aheadMs ? { now: () => new Date(Date.now() + aheadMs) } : {});
}

/**
 * A container whose requests come at least GROUPS_REVISION_MOVE_SETTLE_MS after each group change,
 * as a person's next click does: what it reads of the groups after a move it may keep. Nearer the
 * move it reads them on every request (test/unit/group-roles-by-revision.test.ts).
 */
const keepingContainerOn = (tableName: string): Services => containerOn(tableName, GROUPS_REVISION_MOVE_SETTLE_MS);

/** Each request the container sends while `act` runs: its operation and the partitions it names. */
async function recorded<T>(container: Services, act: () => Promise<T>) {
  const sent: Array<{ operation: string; partitions: string[] }> = [];
  const name = unique('record');
  container.composition.store.db.middlewareStack.add((next, context) => (args) => {
    sent.push({ operation: String(context.commandName).replace(/Command$/, ''), partitions: partitionsOf((args as { input: Record<string, unknown> }).input) });
    return next(args);
  }, { step: 'initialize', name });
  const requests = container.dynamoRequests.snapshot();
  const units = engine.stats().readUnits;
  try {
    const result = await act();
    return { result, sent, requests: countsSince(requests, container.dynamoRequests.snapshot()).byOperation, readUnits: engine.stats().readUnits - units };
  } finally {
    container.composition.store.db.middlewareStack.remove(name);
  }
}

function partitionsOf(input: Record<string, unknown>): string[] {
  const key = input.Key as { pk?: string } | undefined;
  if (key?.pk) return [key.pk];
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  if (typeof values?.[':pk'] === 'string') return [values[':pk']];
  const batches = Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: Array<{ pk: string }> }>);
  return batches.flatMap((batch) => (batch.Keys ?? []).map((k) => k.pk));
}

describe('an admin request with a session cookie', () => {
  let tableName: string;
  let writer: Services;
  let token: string;

  beforeAll(async () => {
    tableName = await newTable();
    writer = containerOn(tableName);
    await writer.firstStart.ensure();
    token = await adminToken(writer);
  });

  async function loggedIn(role: 'Admin' | 'Editor' | 'Viewer') {
    const user = await userWithPassword(writer, role);
    return { user, cookie: await logIn(apiClient(writer), user.username as string) };
  }

  it('learns who calls from one BatchGetItem of 3 read units (session, user, groups\' revision) and reads no group', async () => {
    const { user, cookie } = await loggedIn('Editor');
    for (let i = 0; i < 5; i += 1) {
      await writer.groups.create({ name: unique('team'), rootRole: i === 0 ? ROOT_ROLE.Admin : null, userIds: i < 2 ? [user.id] : [] }, 'test');
    }
    const other = keepingContainerOn(tableName);
    const call = apiClient(other);
    // The container's first request reads the groups once, at the revision it found.
    expect((await call({ method: 'GET', path: '/api/admin/user', headers: { cookie } })).status).toBe(200);

    for (const path of ['/api/admin/projects', '/api/admin/ui-config', '/api/admin/user']) {
      const { result, sent } = await recorded(other, () => call({ method: 'GET', path, headers: { cookie } }));
      expect(result.status, path).toBe(200);
      expect(sent[0], path).toEqual({ operation: 'BatchGetItem', partitions: ['USERS', 'GROUPS_REVISION', `SESSIONS#${user.id}`] });
      expect(sent.filter(({ partitions }) => partitions.some((pk) => pk.startsWith('USERS') || pk.startsWith('SESSIONS') || pk.startsWith('GROUPS'))), path)
        .toHaveLength(1);
    }
    // Who am I: the session's read, and the person's splash settings; the user is not read again.
    const me = await recorded(other, () => call({ method: 'GET', path: '/api/admin/user', headers: { cookie } }));
    expect(me.requests).toEqual({ BatchGetItem: 1, Query: 1 });
    // The user's own root role, and the permissions of the strongest of theirs and their groups'.
    expect(me.result.body.user).toMatchObject({ id: user.id, rootRole: ROOT_ROLE.Editor });
    expect(me.result.body.permissions).toContainEqual({ permission: 'ADMIN' });

    const resolved = await recorded(other, () => other.composition.once(sessions).callerOf([cookie]));
    expect(resolved.result).toMatchObject({ userId: user.id, rootRole: ROOT_ROLE.Admin });
    expect(resolved.requests).toEqual({ BatchGetItem: 1 });
    expect(resolved.readUnits).toBe(3);
  });

  it('learns whose personal access token it is from two requests: the token, then its user with the groups\' revision', async () => {
    const { user } = await loggedIn('Viewer');
    await writer.groups.create({ name: unique('editors'), rootRole: ROOT_ROLE.Editor, userIds: [user.id] }, 'test');
    const pat = await writer.personalTokens.create(user.id, { description: 'reads', expiresAt: new Date(Date.now() + 86_400_000).toISOString() }, 'test');
    const other = keepingContainerOn(tableName);
    const edge = other.composition.once(sessions);
    await edge.callerOfPersonalToken(pat.secret);

    const { result, requests } = await recorded(other, () => edge.callerOfPersonalToken(pat.secret));

    expect(result).toMatchObject({ userId: user.id, rootRole: ROOT_ROLE.Editor });
    expect(requests).toEqual({ GetItem: 1, BatchGetItem: 1 });
  });

  it('carries every change of a root role, through groups or not, to the next request on a container that keeps the groups', async () => {
    const { user, cookie } = await loggedIn('Viewer');
    const admin = apiClient(writer);
    const other = keepingContainerOn(tableName);
    const edge = other.composition.once(sessions);
    /** The caller the other container resolves; it kept the groups unless they changed, and read them again if they did. */
    const roleElsewhere = async (groupsChanged: boolean) => {
      const { result, requests } = await recorded(other, () => edge.callerOf([cookie]));
      expect(requests).toEqual(groupsChanged ? { BatchGetItem: 1, Query: 1 } : { BatchGetItem: 1 });
      return result?.rootRole;
    };
    expect(await roleElsewhere(true)).toBe(ROOT_ROLE.Viewer);
    expect(await roleElsewhere(false)).toBe(ROOT_ROLE.Viewer);

    const created = await admin({ method: 'POST', path: '/api/admin/groups', token, body: { name: unique('ops'), rootRole: ROOT_ROLE.Editor, users: [{ user: { id: user.id } }] } });
    expect(created.status).toBe(201);
    const groupPath = `/api/admin/groups/${created.body.id}`;
    expect(await roleElsewhere(true)).toBe(ROOT_ROLE.Editor);
    expect(await roleElsewhere(false)).toBe(ROOT_ROLE.Editor);

    // The group's root role.
    await admin({ method: 'PUT', path: groupPath, token, body: { name: created.body.name, rootRole: ROOT_ROLE.Admin, users: [{ user: { id: user.id } }] } });
    expect(await roleElsewhere(true)).toBe(ROOT_ROLE.Admin);
    // Its members.
    await admin({ method: 'PUT', path: groupPath, token, body: { name: created.body.name, rootRole: ROOT_ROLE.Admin, users: [] } });
    expect(await roleElsewhere(true)).toBe(ROOT_ROLE.Viewer);
    await admin({ method: 'PUT', path: groupPath, token, body: { name: created.body.name, rootRole: ROOT_ROLE.Editor, users: [{ user: { id: user.id } }] } });
    expect(await roleElsewhere(true)).toBe(ROOT_ROLE.Editor);

    // A single sign-on login's group sync.
    const mapped = await admin({ method: 'POST', path: '/api/admin/groups', token, body: { name: unique('sso'), rootRole: ROOT_ROLE.Admin, mappingsSSO: ['platform'] } });
    expect(await roleElsewhere(true)).toBe(ROOT_ROLE.Editor);
    await writer.groups.syncSsoMemberships(user.id, ['platform'], 'sso');
    expect(await roleElsewhere(true)).toBe(ROOT_ROLE.Admin);
    await writer.groups.syncSsoMemberships(user.id, [], 'sso');
    expect(await roleElsewhere(true)).toBe(ROOT_ROLE.Editor);

    // The group's deletion.
    expect((await admin({ method: 'DELETE', path: groupPath, token })).status).toBe(200);
    expect(await roleElsewhere(true)).toBe(ROOT_ROLE.Viewer);

    // The user's own role: no group changed.
    expect((await admin({ method: 'PUT', path: `/api/admin/user-admin/${user.id}`, token, body: { rootRole: ROOT_ROLE.Admin } })).status).toBe(200);
    expect(await roleElsewhere(false)).toBe(ROOT_ROLE.Admin);

    // A member's deletion takes them out of their groups: the revision moves with it.
    const leaving = await userWithPassword(writer, 'Viewer');
    await writer.groups.syncSsoMemberships(leaving.id, ['platform'], 'sso');
    expect(await roleElsewhere(true)).toBe(ROOT_ROLE.Admin);
    expect((await admin({ method: 'DELETE', path: `/api/admin/user-admin/${leaving.id}`, token })).status).toBe(200);
    expect(await roleElsewhere(true)).toBe(ROOT_ROLE.Admin);
    expect((await admin({ method: 'DELETE', path: `/api/admin/groups/${mapped.body.id}`, token })).status).toBe(200);
    expect(await roleElsewhere(true)).toBe(ROOT_ROLE.Admin);

    // A logout, and a password change on another session.
    const second = await logIn(admin, user.username as string);
    await writer.composition.once(sessions).end([cookie]);
    expect((await recorded(other, () => edge.callerOf([cookie]))).result).toBeUndefined();
    expect((await recorded(other, () => edge.callerOf([second]))).result?.userId).toBe(user.id);
    await writer.users.setPassword(user.id, 'Another-Good-Pass-8');
    expect((await recorded(other, () => edge.callerOf([second]))).result).toBeUndefined();
  });
});

describe('a table from before the groups\' revision', () => {
  it('reads the groups on every request until the revision exists and has settled', async () => {
    const tableName = await newTable();
    const writer = containerOn(tableName);
    // A table whose first start ran before the revision existed: its seed marker, no revision.
    await writer.composition.store.db.send(new PutCommand({ TableName: tableName, Item: { ...keys.seed(), seededAt: new Date().toISOString() } }));
    const user = await userWithPassword(writer, 'Viewer');
    const cookie = await logIn(apiClient(writer), user.username as string);
    const other = containerOn(tableName);
    const resolve = () => recorded(other, () => other.composition.once(sessions).callerOf([cookie]));

    for (let i = 0; i < 2; i += 1) expect((await resolve()).requests).toEqual({ BatchGetItem: 1, Query: 1 });
    await writer.groups.create({ name: unique('editors'), rootRole: ROOT_ROLE.Editor, userIds: [user.id] }, 'test');
    const first = await resolve();
    expect(first.result?.rootRole).toBe(ROOT_ROLE.Editor);

    // The group's write made the revision; a writer of the code before it could still be running.
    const stored = await writer.composition.store.db.send(new GetCommand({ TableName: tableName, Key: keys.groupsRevision(), ConsistentRead: true }));
    expect(stored.Item).toMatchObject({ revision: 1 });
    expect(Date.now() - (stored.Item?.since as number)).toBeLessThan(GROUPS_REVISION_SETTLE_MS);
    expect((await resolve()).requests).toEqual({ BatchGetItem: 1, Query: 1 });

    // Once it has settled, a container keeps the groups per revision.
    const later = containerOn(tableName, GROUPS_REVISION_SETTLE_MS);
    const resolveLater = () => recorded(later, () => later.composition.once(sessions).callerOf([cookie]));
    expect((await resolveLater()).requests).toEqual({ BatchGetItem: 1, Query: 1 });
    expect((await resolveLater()).requests).toEqual({ BatchGetItem: 1 });
    expect((await resolveLater()).result?.rootRole).toBe(ROOT_ROLE.Editor);
  });

  it('gets the revision from the next start (or deployment), which leaves an existing one as it is', async () => {
    const tableName = await newTable();
    const services = containerOn(tableName);
    await services.composition.store.db.send(new PutCommand({ TableName: tableName, Item: { ...keys.seed(), seededAt: new Date().toISOString() } }));
    const before = Date.now();

    expect(await services.firstStart.ensure()).toBe(false);
    const made = (await services.composition.store.db.send(new GetCommand({ TableName: tableName, Key: keys.groupsRevision(), ConsistentRead: true }))).Item;
    await services.groups.create({ name: unique('team'), rootRole: null }, 'test');
    await services.firstStart.ensure();
    const after = (await services.composition.store.db.send(new GetCommand({ TableName: tableName, Key: keys.groupsRevision(), ConsistentRead: true }))).Item;

    expect(made).toMatchObject({ revision: 0 });
    expect(made?.since).toBeGreaterThanOrEqual(before);
    expect(after).toEqual({ ...made, revision: 1, movedAt: expect.any(Number) });
    expect(after?.movedAt).toBeGreaterThanOrEqual(before);
  });

  it('is trusted at once on a fresh table, whose first start writes it', async () => {
    const tableName = await newTable();
    const services = containerOn(tableName);

    expect(await services.firstStart.ensure()).toBe(true);
    const item = (await services.composition.store.db.send(new GetCommand({ TableName: tableName, Key: keys.groupsRevision(), ConsistentRead: true }))).Item;

    expect(item).toMatchObject({ revision: 0, since: 0 });
  });
});
