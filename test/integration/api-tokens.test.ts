import { describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { DynamoRevisionStore } from '../../lib/store/revision-store.js';
import { keys } from '../../lib/store/table-design.js';
import { hashSecret, tokenIdOf } from '../../lib/tokens/model.js';
import { testConfig, unique } from '../support/services.js';
import { adminSession } from '../support/api.js';
import { logIn, userWithPassword } from '../support/sessions.js';

const { services, call, token } = adminSession();

const createToken = (body: Record<string, unknown>) => call({ method: 'POST', path: '/api/admin/api-tokens', token, body });

describe('POST /api/admin/api-tokens', () => {
  it('creates a client token in Unleash format and shows its secret once', async () => {
    const tokenName = unique('sdk');

    const res = await createToken({ tokenName, type: 'client', environment: 'development' });

    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('api-tokens');
    expect(res.body.secret).toMatch(/^\*:development\.[0-9a-f]{56}$/);
    expect(res.body).toMatchObject({ tokenName, username: tokenName, type: 'client', environment: 'development', project: '*', projects: ['*'] });
    const listed = await call({ method: 'GET', path: '/api/admin/api-tokens', token });
    const entry = listed.body.tokens.find((t: { tokenName: string }) => t.tokenName === tokenName);
    expect(entry.secret).not.toBe(res.body.secret);
    expect(entry.secret).toBe(`*:development.****${res.body.tokenId}`);
    expect(entry.tokenId).toBe(res.body.tokenId);
  });

  it.each([
    [{ type: 'client', environment: 'development' }, '*:development.'],
    [{ type: 'backend', environment: 'production', project: 'default' }, 'default:production.'],
    [{ type: 'admin' }, '*:*.'],
  ])('lists a %j token by its scope prefix %s and not one character of its random part', async (scope, prefix) => {
    const tokenName = unique('masked');
    const created = await createToken({ tokenName, ...scope });
    const random = (created.body.secret as string).slice(prefix.length);

    const listed = await call({ method: 'GET', path: '/api/admin/api-tokens', token });

    const entry = listed.body.tokens.find((t: { tokenName: string }) => t.tokenName === tokenName);
    expect(created.body.secret.startsWith(prefix)).toBe(true);
    expect(entry.secret.startsWith(prefix)).toBe(true);
    // After the prefix, only the mask and the token's id, a prefix of the secret's hash: nothing of the random part.
    expect((entry.secret as string).slice(prefix.length)).toBe(`****${entry.tokenId as string}`);
    expect(entry.tokenId).toBe(created.body.tokenId);
    // Nor anywhere else in the entry (8 characters: a shorter run could match the token id by chance).
    expect(eightCharacterRuns(random).filter((run) => JSON.stringify(entry).includes(run))).toEqual([]);
  });

  it('lists a token stored by an earlier version, whose stored hint held six random characters, without them', async () => {
    const tokenName = unique('legacy');
    const secret = `default:development.${'a1b2c3'}${'d'.repeat(50)}`;
    const secretHash = hashSecret(secret);
    const config = testConfig();
    const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
    // The item as an earlier version wrote it.
    const item = {
      secretHash, tokenId: tokenIdOf(secretHash), secretHint: 'default:development.a1b2c3…', tokenName, type: 'client',
      environment: 'development', projects: ['default'], createdAt: new Date().toISOString(), expiresAt: null, seenAt: null,
    };
    await db.send(new PutCommand({ TableName: config.tableName, Item: { ...keys.apiToken(secretHash), ...item } }));

    const listed = await call({ method: 'GET', path: '/api/admin/api-tokens', token });

    const entry = listed.body.tokens.find((t: { tokenName: string }) => t.tokenName === tokenName);
    expect(entry.secret).toBe(`default:development.****${entry.tokenId}`);
  });

  it('creates a frontend token for the browser and mobile SDKs, refused on the SDK and admin APIs with 403', async () => {
    const tokenName = unique('web');
    const created = await createToken({ tokenName, type: 'Frontend', environment: 'development', project: 'default' });

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tokenName, type: 'frontend', environment: 'development', projects: ['default'] });
    expect(created.body.secret).toMatch(/^default:development\.[0-9a-f]{56}$/);
    const secret = created.body.secret as string;
    const poll = await call({ method: 'GET', path: '/api/client/features', token: secret });
    expect(poll.status).toBe(403);
    expect(poll.body).toMatchObject({ name: 'NoAccessError', message: expect.stringContaining('/api/frontend') });
    const admin = await call({ method: 'GET', path: '/api/admin/projects', token: secret });
    expect(admin.status).toBe(403);
    expect(admin.body.name).toBe('NoAccessError');
    const listed = await call({ method: 'GET', path: '/api/admin/api-tokens', token });
    expect(listed.body.tokens.find((t: { tokenName: string }) => t.tokenName === tokenName)).toMatchObject({ type: 'frontend' });
    expect((await call({ method: 'DELETE', path: `/api/admin/api-tokens/${created.body.tokenId as string}`, token })).status).toBe(200);
    expect((await call({ method: 'GET', path: '/api/client/features', token: secret })).status).toBe(401);
  });

  it('formats project-scoped and multi-project secrets as Unleash does', async () => {
    const one = await createToken({ tokenName: unique('p'), type: 'backend', environment: 'production', project: 'default' });
    const many = await createToken({ tokenName: unique('m'), type: 'client', environment: 'production', projects: ['default', 'default'] });

    expect(one.body.secret).toMatch(/^default:production\./);
    expect(many.body.projects).toEqual(['default']);
  });

  it('makes admin tokens *:* and types case-insensitive', async () => {
    const res = await createToken({ username: unique('ops'), type: 'ADMIN' });

    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^\*:\*\./);
    expect(res.body.type).toBe('admin');
  });

  it.each([
    [{ tokenName: 'a', type: 'admin', environment: 'development' }, 'environment'],
    [{ tokenName: 'a', type: 'admin', project: 'default' }, 'projects'],
    [{ tokenName: 'a', type: 'client', environment: '*' }, 'environment'],
    [{ tokenName: 'a', type: 'client', environment: 'staging' }, 'Environment=staging does not exist'],
    [{ tokenName: 'a', type: 'client', environment: 'development', project: 'nope' }, 'Project=nope does not exist'],
    [{ tokenName: 'a', type: 'frontend', environment: '*' }, 'environment'],
    [{ tokenName: 'a', type: 'proxy', environment: 'development' }, 'type'],
    [{ type: 'client' }, 'tokenName'],
    [{ tokenName: 'a', type: 'client', expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
  ])('refuses %j with 400 naming %s', async (body, needle) => {
    const res = await createToken(body);

    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.message).toContain(needle);
  });
});

describe('using tokens', () => {
  it('lets a client token through to the SDK API but answers 403 NoAccessError on admin routes', async () => {
    const { body } = await createToken({ tokenName: unique('c'), type: 'client', environment: 'development' });

    const admin = await call({ method: 'GET', path: '/api/admin/strategies', token: body.secret });
    const create = await call({ method: 'POST', path: '/api/admin/strategies', token: body.secret, body: { name: 'x', parameters: [] } });

    expect(admin.status).toBe(403);
    expect(admin.body).toMatchObject({ name: 'NoAccessError' });
    expect(admin.body.message).toContain('READ_STRATEGY');
    expect(create.body.message).toContain('CREATE_STRATEGY');
  });

  it('accepts a Bearer prefix', async () => {
    const res = await call({ method: 'GET', path: '/api/admin/ui-config', token: `Bearer ${token}` });

    expect(res.status).toBe(200);
    // The admin's ui-config itself, not an error: the prefixed secret was taken as the token.
    expect(res.body).toMatchObject({ name: 'serverless-toggles', baseUriPath: expect.any(String) });
  });

  it('refuses an expired token with 401', async () => {
    const secret = `*:*.${unique('expired')}`;
    await services.apiTokens.insertKnownSecret(secret, {
      tokenName: 'expired', type: 'admin', environment: '*', projects: ['*'], expiresAt: '2001-01-01T00:00:00.000Z',
    });

    const res = await call({ method: 'GET', path: '/api/admin/strategies', token: secret });

    expect(res.status).toBe(401);
    expect(res.body.name).toBe('AuthenticationRequired');
    expect(res.body.message).toContain('unknown or has expired');
    expect(res.body.strategies).toBeUndefined();
  });
});

describe('DELETE /api/admin/api-tokens/{token}', () => {
  it('deletes by secret, after which the token is refused with 401; deleting again is fine', async () => {
    const { body } = await createToken({ tokenName: unique('gone'), type: 'admin' });

    const res = await call({ method: 'DELETE', path: `/api/admin/api-tokens/${encodeURIComponent(body.secret)}`, token });
    const again = await call({ method: 'DELETE', path: `/api/admin/api-tokens/${encodeURIComponent(body.secret)}`, token });
    const use = await call({ method: 'GET', path: '/api/admin/strategies', token: body.secret });

    expect(res.status).toBe(200);
    expect(again.status).toBe(200);
    expect(use.status).toBe(401);
    expect(use.body.name).toBe('AuthenticationRequired');
    // Gone from the list too, not only refused.
    const listed = await call({ method: 'GET', path: '/api/admin/api-tokens', token });
    expect(listed.body.tokens.map((t: { tokenId: string }) => t.tokenId)).not.toContain(body.tokenId);
  });

  it("deletes by the secret the list answers, as the admin UI's delete button sends it, after which the SDK is refused and the list no longer has it", async () => {
    const { body } = await createToken({ tokenName: unique('ui-delete'), type: 'client', environment: 'development' });
    const { body: other } = await createToken({ tokenName: unique('ui-keep'), type: 'client', environment: 'development' });
    const poll = (secret: string) => call({ method: 'GET', path: '/api/client/features', token: secret });
    expect((await poll(body.secret)).status).toBe(200);
    const listed = await call({ method: 'GET', path: '/api/admin/api-tokens', token });
    const entry = listed.body.tokens.find((t: { tokenId: string }) => t.tokenId === body.tokenId);
    // The same scope, so the two listed values differ only by the token each names.
    expect(listed.body.tokens.find((t: { tokenId: string }) => t.tokenId === other.tokenId).secret).not.toBe(entry.secret);
    // What the list shows (and the UI's copy button copies) is not a secret: it authenticates nothing.
    expect((await poll(entry.secret)).status).toBe(401);

    const res = await call({ method: 'DELETE', path: `/api/admin/api-tokens/${encodeURIComponent(entry.secret)}`, token });

    expect(res.status).toBe(200);
    const after = await poll(body.secret);
    expect(after.status).toBe(401);
    expect(after.body.name).toBe('AuthenticationRequired');
    const tokens = (await call({ method: 'GET', path: '/api/admin/api-tokens', token })).body.tokens.map((t: { tokenId: string }) => t.tokenId);
    expect(tokens).not.toContain(body.tokenId);
    // Only that token: the other one of the same scope still polls.
    expect(tokens).toContain(other.tokenId);
    expect((await poll(other.secret)).status).toBe(200);
  });

  it('deletes by tokenId, for a secret nobody kept', async () => {
    const { body } = await createToken({ tokenName: unique('lost'), type: 'admin' });

    await call({ method: 'DELETE', path: `/api/admin/api-tokens/${body.tokenId}`, token });
    const use = await call({ method: 'GET', path: '/api/admin/strategies', token: body.secret });

    expect(use.status).toBe(401);
    expect(use.body.name).toBe('AuthenticationRequired');
    const listed = await call({ method: 'GET', path: '/api/admin/api-tokens', token });
    expect(listed.body.tokens.map((t: { tokenId: string }) => t.tokenId)).not.toContain(body.tokenId);
  });
});

function eightCharacterRuns(text: string): string[] {
  return Array.from({ length: Math.max(0, text.length - 7) }, (_, at) => text.slice(at, at + 8));
}

describe('GET /api/admin/api-tokens for people', () => {
  it("lists an Editor the client and frontend tokens but not the admin ones (Unleash lists the types the permission names); an Admin every token", async () => {
    const adminName = unique('admin-tok');
    const clientName = unique('client-tok');
    expect((await createToken({ tokenName: adminName, type: 'admin' })).status).toBe(201);
    expect((await createToken({ tokenName: clientName, type: 'client', environment: 'development' })).status).toBe(201);
    const namesFor = async (role: 'Editor' | 'Admin') => {
      const cookie = await logIn(call, (await userWithPassword(services, role)).username as string);
      const res = await call({ method: 'GET', path: '/api/admin/api-tokens', headers: { Cookie: cookie } });
      expect(res.status).toBe(200);
      return res.body.tokens.map((t: { tokenName: string }) => t.tokenName) as string[];
    };

    const editorSees = await namesFor('Editor');
    const adminSees = await namesFor('Admin');

    expect(editorSees).toContain(clientName);
    expect(editorSees).not.toContain(adminName);
    expect(adminSees).toEqual(expect.arrayContaining([clientName, adminName]));
  });
});
