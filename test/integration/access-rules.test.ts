import { describe, expect, it } from 'vitest';
import { operationIds, routeTable } from '../../lib/route-table.js';
import { adminToken, testServices } from '../support/services.js';
import { apiClient } from '../support/api.js';

const services = testServices();
const call = apiClient(services);

/** A concrete request path for a route-table path: every parameter becomes a plain word. */
const concretePath = (path: string) => path.replace(/\{(\w+)\+\}/g, 'some/where').replace(/\{\w+\}/g, 'x');
const concreteMethod = (method: string) => (method === 'ANY' ? 'GET' : method);

describe('authentication across the route table', () => {
  const guarded = operationIds.filter((id) => routeTable[id].access.kind !== 'public');

  it('leaves only /health, the API description, people\'s login (password and single sign-on), reset and invite pages, the Frontend API\'s CORS preflights and Unleash Edge\'s token validation open', () => {
    const open = operationIds.filter((id) => routeTable[id].access.kind === 'public').map((id) => routeTable[id].path);

    // The docs describe the API and hold no data; Swagger UI asks for a token before calling /api.
    expect(open.sort()).toEqual([
      '/api/frontend', '/api/frontend/{proxy+}',
      '/auth/oidc/callback', '/auth/oidc/login',
      '/auth/reset/password', '/auth/reset/validate', '/auth/reset/validate-password', '/auth/simple/login',
      '/docs', '/docs/openapi.json', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/edge/validate', '/health',
      '/invite/{token}/signup', '/invite/{token}/validate', '/logout', '/logout',
      '/ofrep/v1/evaluate/flags', '/ofrep/v1/evaluate/flags/{featureName}',
    ]);
    // A browser's preflight carries no token (the Fetch standard); it only learns the CORS headers.
    const openApi = operationIds.filter((id) => routeTable[id].path.startsWith('/api/') && !guarded.includes(id));
    expect(openApi.map((id) => routeTable[id].method)).toEqual(['OPTIONS', 'OPTIONS']);
  });

  // OFREP answers in its protocol's shapes (lib/ofrep/errors.ts): a 401 without a body.
  const isOfrep = (id: (typeof operationIds)[number]) => routeTable[id].path.startsWith('/ofrep/');

  it.each(guarded.filter(isOfrep))('%s answers 401 without a body, as OFREP does, without a token', async (id) => {
    const { method, path } = routeTable[id];

    const res = await call({ method: concreteMethod(method), path: concretePath(path), body: { context: {} } });

    expect(res.status).toBe(401);
    expect(res.text).toBe('');
  });

  it.each(guarded.filter((id) => !isOfrep(id)))('%s answers 401 AuthenticationRequired without a token', async (id) => {
    const { method, path } = routeTable[id];

    const res = await call({ method: concreteMethod(method), path: concretePath(path) });

    expect(res.status).toBe(401);
    expect(res.body.name).toBe('AuthenticationRequired');
    expect(res.body.message).toContain('Authorization');
    expect(res.body.message).toContain('/auth/simple/login');
    // As Unleash's, the 401 names the login form the UI shows.
    expect(res.body).toMatchObject({ type: 'password', path: '/auth/simple/login', defaultHidden: false });
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it.each(guarded)('%s answers 401 for a token nobody issued', async (id) => {
    const { method, path } = routeTable[id];

    const res = await call({ method: concreteMethod(method), path: concretePath(path), token: '*:*.not-a-real-token' });

    expect(res.status).toBe(401);
  });

  it('checks the token before the content type and the body', async () => {
    const res = await call({
      method: 'POST', path: '/api/admin/strategies', rawBody: '{', headers: { 'Content-Type': 'text/plain' },
    });

    expect(res.status).toBe(401);
  });
});

describe('unknown paths', () => {
  it('answers 404 NotFoundError under /api once the caller is authenticated', async () => {
    const token = await adminToken(services);

    const res = await call({ method: 'DELETE', path: '/api/admin/no-such-thing/here', token });

    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      name: 'NotFoundError',
      message: 'The path you were looking for (/api/admin/no-such-thing/here) is not available.',
    });
  });
});
