import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { oidcSettingsSchema } from '../../lib/oidc/schemas.js';
import { SECRET_MASK } from '../../lib/oidc/model.js';
import type { Services } from '../../local/app-services.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { keys } from '../../lib/store/table-design.js';
import { namedAdminToken } from '../support/access.js';
import { apiClient } from '../support/api.js';
import { captureLogs } from '../support/logs.js';
import { testServices, unique } from '../support/services.js';

/**
 * The OIDC settings are one item per table, and they change what E16 reports, so these tests
 * run on a table of their own: the other tests' UI configuration stays as it was.
 */
const SECRET_KEY = randomBytes(32).toString('base64url');
const tableName = unique('oidc');
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;

beforeAll(async () => {
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodb').endpoint }, tableName);
  services = testServices({ TABLE_NAME: tableName, SECRET_KEY });
  call = apiClient(services);
  token = await namedAdminToken(services, unique('oidc-admin'));
});

const settings = (overrides: Record<string, unknown> = {}) => ({
  enabled: true,
  discoverUrl: 'https://idp.example.com/.well-known/openid-configuration',
  clientId: 'toggles',
  secret: 'client-secret-value',
  autoCreate: true,
  defaultRootRole: 'Editor',
  emailDomains: 'example.com, example.org',
  idTokenSigningAlgorithm: 'RS384',
  ...overrides,
});
const save = (body: unknown) => call({ method: 'POST', path: '/api/admin/auth/oidc/settings', token, body });
const read = () => call({ method: 'GET', path: '/api/admin/auth/oidc/settings', token });
const uiConfig = () => call({ method: 'GET', path: '/api/admin/ui-config', token });

describe('E19 OIDC settings', () => {
  it('answers OIDC off with the defaults before anything is set, and E16 says open-source', async () => {
    const res = await read();

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ enabled: false, clientId: '', secret: '', autoCreate: false, idTokenSigningAlgorithm: 'RS256' });
    expect((await uiConfig()).body).toMatchObject({ authenticationType: 'open-source', disablePasswordAuth: false });
  });

  it('saves the settings and answers them with the secret masked, on POST and on GET', async () => {
    const res = await save(settings({ defaultRootRoleId: 2, acrValues: 'mfa' }));

    expect(res.status).toBe(200);
    expect(oidcSettingsSchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toEqual({
      ...settings({ defaultRootRoleId: 2, acrValues: 'mfa' }),
      secret: SECRET_MASK,
      enableSingleSignOut: false,
      enableGroupSyncing: false,
      addGroupsScope: false,
      trustEmailClaim: false,
    });
    expect((await read()).body).toEqual(res.body);
  });

  it('keeps trustEmailClaim, off unless turned on', async () => {
    expect((await save(settings({ trustEmailClaim: true }))).body.trustEmailClaim).toBe(true);
    expect((await read()).body.trustEmailClaim).toBe(true);
    expect((await save(settings())).body.trustEmailClaim).toBe(false);
    expect((await save(settings({ trustEmailClaim: 'yes' }))).status).toBe(400);
  });

  it('keeps the group syncing settings (they were once dropped on save)', async () => {
    const res = await save(settings({ enableGroupSyncing: true, groupJsonPath: 'realm_access.roles', addGroupsScope: true }));

    expect(res.status).toBe(200);
    expect((await read()).body).toMatchObject({ enableGroupSyncing: true, groupJsonPath: 'realm_access.roles', addGroupsScope: true });
  });

  it('refuses to enable OIDC without a discovery URL, and group syncing without a group path', async () => {
    const { discoverUrl: _url, ...withoutUrl } = settings();
    const noUrl = await save(withoutUrl);
    const noPath = await save(settings({ enableGroupSyncing: true }));

    expect(noUrl.status).toBe(400);
    expect(noUrl.body.message).toMatch(/^discoverUrl: is required while OIDC is enabled/);
    expect(noPath.status).toBe(400);
    expect(noPath.body.message).toMatch(/^groupJsonPath: is required while group syncing is on/);
  });

  it('stores the secret encrypted: the item holds no plain text, and only the key opens it', async () => {
    await save(settings({ secret: 'do-not-store-me-plainly' }));
    const db = createDocumentClient({ region: 'local', endpoint: inject('dynamodb').endpoint });

    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.oidcSettings(), ConsistentRead: true }));

    expect(JSON.stringify(Item)).not.toContain('do-not-store-me-plainly');
    expect(Item?.sealedSecret).toMatch(/^v1\./);
    expect(await services.oidcSettings.clientSecret()).toBe('do-not-store-me-plainly');
    const otherKey = testServices({ TABLE_NAME: tableName, SECRET_KEY: randomBytes(32).toString('base64url') });
    await expect(otherKey.oidcSettings.clientSecret()).rejects.toThrow();
  });

  it('keeps the stored secret when the masked value is sent back', async () => {
    await save(settings({ secret: 'kept-secret' }));

    const res = await save(settings({ secret: SECRET_MASK, clientId: 'renamed-client' }));

    expect(res.status).toBe(200);
    expect(res.body.clientId).toBe('renamed-client');
    expect(await services.oidcSettings.clientSecret()).toBe('kept-secret');
  });

  it('never logs the secret, not even when the request is refused', async () => {
    const logged = captureLogs();

    await save(settings({ secret: 'logged-secret-canary' }));
    const refused = await save(settings({ secret: 'logged-secret-canary', discoverUrl: 'not a url' }));

    logged.restore();
    const output = logged.text();
    expect(output).not.toContain('logged-secret-canary');
    expect(refused.text).not.toContain('logged-secret-canary');
  });

  it('makes E16 report enterprise authentication while OIDC is on, and open-source again when off', async () => {
    await save(settings({ enabled: true }));
    const on = await uiConfig();
    await save(settings({ enabled: false }));
    const off = await uiConfig();

    expect(on.body).toMatchObject({ authenticationType: 'enterprise', disablePasswordAuth: false });
    expect(off.body).toMatchObject({ authenticationType: 'open-source', disablePasswordAuth: false });
  });

  it.each([
    [{ clientId: undefined }, 'clientId'],
    [{ clientId: '' }, 'clientId'],
    [{ secret: undefined }, 'secret'],
    [{ secret: '' }, 'secret'],
    [{ discoverUrl: 'not a url' }, 'discoverUrl'],
    [{ discoverUrl: 'ftp://idp.example.com/config' }, 'discoverUrl'],
    [{ defaultRootRole: 'Owner' }, 'defaultRootRole'],
    [{ defaultRootRoleId: 4 }, 'defaultRootRoleId'],
    [{ idTokenSigningAlgorithm: 'HS256' }, 'idTokenSigningAlgorithm'],
    [{ emailDomains: 'example.com, not a domain' }, 'emailDomains'],
    [{ emailDomains: 'example.com,,example.org' }, 'emailDomains'],
  ])('refuses %j with 400 naming %s', async (overrides, property) => {
    const res = await save(settings(overrides));

    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.message).toContain(property);
  });

  it('refuses the masked value when no secret is stored yet', async () => {
    const freshTable = unique('oidc-fresh');
    await prepareLocalTable({ region: 'local', endpoint: inject('dynamodb').endpoint }, freshTable);
    const fresh = testServices({ TABLE_NAME: freshTable, SECRET_KEY });
    const freshToken = await namedAdminToken(fresh, unique('fresh-admin'));

    const res = await apiClient(fresh)({
      method: 'POST', path: '/api/admin/auth/oidc/settings', token: freshToken, body: settings({ secret: SECRET_MASK }),
    });

    expect(res.status).toBe(400);
    expect(res.body.message).toContain('secret');
  });
});
