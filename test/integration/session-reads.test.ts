import { beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../lib/composition/session-edge.js';
import { ROOT_ROLE } from '../../lib/roles/model.js';
import { countsSince } from '../../lib/store/request-counter.js';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { freshInstanceServices, servicesOn } from '../support/services.js';
import { logIn, userWithPassword } from '../support/sessions.js';

/*
 * What resolving a session cookie costs on every admin request, and that the cheaper read still
 * refuses at once (on another container too) a session logged out, a user demoted, a password
 * changed or a user deleted: nothing about a session is kept between requests.
 */
let services: Services;
/** A second process on the same table, as another Lambda container would be. */
let otherContainer: Services;

beforeAll(async () => {
  services = await freshInstanceServices();
  otherContainer = servicesOn(services.config);
});

async function loggedIn(role: 'Admin' | 'Editor' | 'Viewer') {
  const user = await userWithPassword(services, role);
  const cookie = await logIn(apiClient(services), user.username as string);
  return { user, cookies: [cookie] };
}

/** The caller the other container resolves, with the DynamoDB requests it sent for it. */
async function resolvedElsewhere(cookies: string[]) {
  const edge = otherContainer.composition.once(sessions);
  const before = otherContainer.dynamoRequests.snapshot();
  const caller = await edge.callerOf(cookies);
  return { caller, requests: countsSince(before, otherContainer.dynamoRequests.snapshot()).byOperation };
}

describe('a session cookie on an admin request', () => {
  it('is resolved with one BatchGetItem (the session, its user and the groups\' revision), the groups read once per revision', async () => {
    const { user, cookies } = await loggedIn('Editor');

    const first = await resolvedElsewhere(cookies);
    const again = await resolvedElsewhere(cookies);

    expect(first.caller).toMatchObject({ userId: user.id, rootRole: ROOT_ROLE.Editor });
    // The container's first session reads the groups at the revision it found; later ones do not.
    expect(first.requests.BatchGetItem).toBe(1);
    expect(again.requests).toEqual({ BatchGetItem: 1 });
    expect(again.caller).toEqual(first.caller);
  });

  it('carries a demotion, a group role, a password change and a deletion to the next request on another container', async () => {
    const { user, cookies } = await loggedIn('Admin');
    expect((await resolvedElsewhere(cookies)).caller?.rootRole).toBe(ROOT_ROLE.Admin);

    await services.users.update(user.id, { rootRole: 'Viewer' }, 'test');
    expect((await resolvedElsewhere(cookies)).caller?.rootRole).toBe(ROOT_ROLE.Viewer);

    const { group } = await services.groups.create({ name: `editors-${user.id}`, rootRole: ROOT_ROLE.Editor, userIds: [user.id] }, 'test');
    expect((await resolvedElsewhere(cookies)).caller?.rootRole).toBe(ROOT_ROLE.Editor);
    await services.groups.delete(group.id, 'test');
    expect((await resolvedElsewhere(cookies)).caller?.rootRole).toBe(ROOT_ROLE.Viewer);

    await services.users.setPassword(user.id, 'Another-Good-Pass-8');
    expect((await resolvedElsewhere(cookies)).caller).toBeUndefined();

    const again = await logIn(apiClient(services), user.username as string, 'Another-Good-Pass-8');
    expect((await resolvedElsewhere([again])).caller?.userId).toBe(user.id);
    await services.users.delete(user.id, 'test');
    expect((await resolvedElsewhere([again])).caller).toBeUndefined();
  });

  it('is refused on another container right after this session logged out, while the same user\'s other session goes on', async () => {
    const { user, cookies } = await loggedIn('Viewer');
    const other = [await logIn(apiClient(services), user.username as string)];

    await services.composition.once(sessions).end(cookies);

    expect((await resolvedElsewhere(cookies)).caller).toBeUndefined();
    expect((await resolvedElsewhere(other)).caller?.userId).toBe(user.id);
  });

  it('costs the one request when the cookie names no session, and resolves no one', async () => {
    const forged = `unleash-session=987654321.${'A'.repeat(43)}`;

    const { caller, requests } = await resolvedElsewhere([forged]);

    expect(caller).toBeUndefined();
    expect(requests).toEqual({ BatchGetItem: 1 });
  });
});
