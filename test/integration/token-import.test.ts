import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashSecret, tokenIdOf } from '../../lib/tokens/model.js';
import { adminSession } from '../support/api.js';
import { unique } from '../support/services.js';

const { call, token } = adminSession();

const createToken = (body: Record<string, unknown>) => call({ method: 'POST', path: '/api/admin/api-tokens', token, body });
const poll = (secret: string) => call({ method: 'GET', path: '/api/client/features', token: secret });

/** An Unleash 7 secret: the scope prefix and 56 hex characters. */
const unleashSecret = (prefix: string) => `${prefix}${randomBytes(28).toString('hex')}`;
/** An Unleash 8 secret: the scope prefix, `v2_`, a 22-character selector and a 43-character secret, both base64url. */
const unleashV2Secret = (prefix: string) =>
  `${prefix}v2_${randomBytes(16).toString('base64url')}_${randomBytes(32).toString('base64url')}`;

describe('POST /api/admin/api-tokens with a known secret (a token brought from Unleash)', () => {
  it('stores the secret it is given, so an SDK holding it keeps working', async () => {
    const secret = unleashSecret('default:development.');

    const created = await createToken({ tokenName: unique('moved'), type: 'client', environment: 'development', projects: ['default'], secret });

    expect(created.status).toBe(201);
    expect(created.body.secret).toBe(secret);
    expect(created.body.tokenId).toBe(tokenIdOf(hashSecret(secret)));
    expect((await poll(secret)).status).toBe(200);
  });

  it.each([
    ['a backend token', 'backend', 'default:development.', { environment: 'development', projects: ['default'] }, '/api/client/features'],
    ['a token of every project', 'client', '*:production.', { environment: 'production', projects: ['*'] }, '/api/client/features'],
    ['a frontend token', 'frontend', '*:development.', { environment: 'development', projects: ['*'] }, '/api/frontend'],
    ['an admin token', 'admin', '*:*.', {}, '/api/admin/projects'],
  ])("takes Unleash 8's v2 form for %s and answers its API with it", async (_, type, prefix, scope, path) => {
    const secret = unleashV2Secret(prefix);

    const created = await createToken({ tokenName: unique('v2'), type, ...scope, secret });

    expect(created.status).toBe(201);
    expect(created.body.secret).toBe(secret);
    expect((await call({ method: 'GET', path, token: secret })).status).toBe(200);
  });

  it('takes a secret of several projects under their shared [] prefix', async () => {
    const project = unique('second');
    expect((await call({ method: 'POST', path: '/api/admin/projects', token, body: { id: project, name: project } })).status).toBe(201);
    const secret = unleashSecret('[]:development.');

    const created = await createToken({ tokenName: unique('multi'), type: 'client', environment: 'development', projects: ['default', project], secret });

    expect(created.status).toBe(201);
    expect(created.body.projects).toEqual(['default', project]);
    expect((await poll(secret)).status).toBe(200);
  });

  it('refuses a secret that is already a token, 409, and the first keeps its scope', async () => {
    const secret = unleashSecret('default:development.');
    const first = await createToken({ tokenName: unique('first'), type: 'client', environment: 'development', projects: ['default'], secret });

    const second = await createToken({ tokenName: unique('second'), type: 'frontend', environment: 'development', projects: ['default'], secret });

    expect(first.status).toBe(201);
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/secret/);
    expect((await poll(secret)).status).toBe(200);
  });

  it.each([
    ['another environment', 'default:production.', { environment: 'development', projects: ['default'] }, /must start with default:development\./],
    ['another project', 'other:development.', { environment: 'development', projects: ['default'] }, /must start with default:development\./],
    ['every project where one is named', '*:development.', { environment: 'development', projects: ['default'] }, /must start with default:development\./],
  ])('refuses, 400 naming secret, a secret whose prefix names %s', async (_, prefix, scope, message) => {
    const secret = unleashSecret(prefix);

    const res = await createToken({ tokenName: unique('mismatch'), type: 'client', ...scope, secret });

    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.message).toMatch(message);
    expect((await poll(secret)).status).toBe(401);
  });

  it('refuses the value a token list shows in place of a secret, and a secret too short to be one', async () => {
    const listed = await createToken({ tokenName: unique('listed'), type: 'client', environment: 'development', projects: ['default'] });
    const masked = `default:development.****${listed.body.tokenId as string}`;

    const fromList = await createToken({ tokenName: unique('copy'), type: 'client', environment: 'development', projects: ['default'], secret: masked });
    const short = await createToken({ tokenName: unique('short'), type: 'client', environment: 'development', projects: ['default'], secret: 'default:development.abc' });

    expect(fromList.status).toBe(400);
    expect(fromList.body.message).toMatch(/^secret/);
    expect(short.status).toBe(400);
    expect(short.body.message).toMatch(/at least 8 characters/);
  });
});

describe("a project's API tokens (the project's API access page)", () => {
  const projectTokens = (project: string) => `/api/admin/projects/${project}/api-tokens`;

  it('creates a token of the path\'s project only, lists it there, and deletes it by the listed value', async () => {
    const tokenName = unique('project-sdk');

    const created = await call({ method: 'POST', path: projectTokens('default'), token, body: { tokenName, type: 'backend', environment: 'development' } });
    const listed = await call({ method: 'GET', path: projectTokens('default'), token });
    const entry = listed.body.tokens.find((t: { tokenName: string }) => t.tokenName === tokenName);
    const deleted = await call({ method: 'DELETE', path: `${projectTokens('default')}/${encodeURIComponent(entry.secret)}`, token });

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tokenName, projects: ['default'], environment: 'development' });
    expect(created.body.secret).toMatch(/^default:development\.[0-9a-f]{56}$/);
    expect(deleted.status).toBe(200);
    expect((await poll(created.body.secret)).status).toBe(401);
  });

  it('creates a project token with a known secret', async () => {
    const secret = unleashV2Secret('default:development.');

    const created = await call({ method: 'POST', path: projectTokens('default'), token, body: { tokenName: unique('moved'), type: 'frontend', environment: 'development', secret } });

    expect(created.status).toBe(201);
    expect(created.body.secret).toBe(secret);
    expect((await call({ method: 'GET', path: '/api/frontend', token: secret })).status).toBe(200);
  });

  it('refuses an admin token, and a project that does not exist', async () => {
    const adminType = await call({ method: 'POST', path: projectTokens('default'), token, body: { tokenName: unique('admin'), type: 'admin' } });
    const missing = await call({ method: 'POST', path: projectTokens(unique('nowhere')), token, body: { tokenName: unique('sdk'), type: 'client', environment: 'development' } });

    expect(adminType.status).toBe(400);
    expect(adminType.body.message).toMatch(/^type/);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/does not exist/);
  });

  it("deletes nothing a project does not hold alone: 400 for a token of every project, 404 for a value that names none", async () => {
    const everyProject = await createToken({ tokenName: unique('shared'), type: 'client', environment: 'development' });

    const shared = await call({ method: 'DELETE', path: `${projectTokens('default')}/${encodeURIComponent(everyProject.body.secret)}`, token });
    const unknown = await call({ method: 'DELETE', path: `${projectTokens('default')}/${encodeURIComponent(unleashSecret('default:development.'))}`, token });

    expect(shared.status).toBe(400);
    expect((await poll(everyProject.body.secret)).status).toBe(200);
    expect(unknown.status).toBe(404);
  });
});
