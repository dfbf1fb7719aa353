import { describe, expect, it } from 'vitest';
import { applyBootstrapTokens } from '../../lib/tokens/bootstrap.js';
import { testServices, unique } from '../support/services.js';
import { apiClient } from '../support/api.js';

describe('bootstrap tokens from INIT_ADMIN_API_TOKENS, INIT_CLIENT_API_TOKENS and INIT_FRONTEND_API_TOKENS', () => {
  it('stores each secret so it works as given, and applying again changes nothing', async () => {
    const services = testServices();
    const admin = `*:*.${unique('boot')}`;
    const client = `*:development.${unique('boot')}`;

    const first = await applyBootstrapTokens(services.apiTokens, { admin: [admin], client: [client] });
    const second = await applyBootstrapTokens(services.apiTokens, { admin: [admin], client: [client] });
    const res = await apiClient(services)({ method: 'GET', path: '/api/admin/strategies', token: admin });
    const clientOnAdmin = await apiClient(services)({ method: 'GET', path: '/api/admin/strategies', token: client });

    expect(first).toEqual({ inserted: 2, kept: 0 });
    expect(second).toEqual({ inserted: 0, kept: 2 });
    expect(res.status).toBe(200);
    expect(clientOnAdmin.status).toBe(403);
  });

  it('stores frontend secrets as frontend tokens: refused on the SDK API', async () => {
    const services = testServices();
    const frontend = `default:development.${unique('boot')}`;

    expect(await applyBootstrapTokens(services.apiTokens, { admin: [], client: [], frontend: [frontend] })).toEqual({ inserted: 1, kept: 0 });
    const listed = (await services.apiTokens.list()).find((token) => token.tokenName === 'frontend' && token.projects[0] === 'default');
    expect(listed).toMatchObject({ type: 'frontend', environment: 'development' });
    expect((await apiClient(services)({ method: 'GET', path: '/api/client/features', token: frontend })).status).toBe(403);
  });

  it.each([
    [{ admin: ['no-colon-here'], client: [] }, 'not in the form'],
    [{ admin: ['default:*.abc'], client: [] }, 'admin tokens must start with *:*'],
    [{ admin: [], client: ['*:*.abc'] }, 'client tokens must name one environment'],
    [{ admin: [], client: ['[]:development.abc'] }, 'several projects'],
    [{ admin: [], client: ['*:staging.abc'] }, 'Environment=staging does not exist'],
    [{ admin: [], client: [], frontend: ['*:*.abc'] }, 'INIT_FRONTEND_API_TOKENS: frontend tokens must name one environment'],
  ])('refuses %j, naming the problem', async (lists, needle) => {
    await expect(applyBootstrapTokens(testServices().apiTokens, lists)).rejects.toThrow(needle);
  });

  it('never echoes a whole secret in its error', async () => {
    const secret = 'default:*.very-secret-value';

    await expect(applyBootstrapTokens(testServices().apiTokens, { admin: [secret], client: [] })).rejects.toThrow(
      /^(?!.*very-secret-value).*$/,
    );
  });
});
