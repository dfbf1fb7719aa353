import { describe, expect, it } from 'vitest';
import { ensureFirstAdmin } from '../../lib/auth/first-admin.js';
import { apiClient } from '../support/api.js';
import { freshInstanceServices } from '../support/services.js';

describe('the first admin user', () => {
  it('is made once on a table with no user, with a generated password that logs in as Admin', async () => {
    const services = await freshInstanceServices();
    const call = apiClient(services);

    const first = await ensureFirstAdmin(services.users, { username: 'admin', password: undefined });
    const second = await ensureFirstAdmin(services.users, { username: 'admin', password: undefined });
    const login = await call({ method: 'POST', path: '/auth/simple/login', body: { username: 'admin', password: first.generatedPassword } });
    const wellKnown = await call({ method: 'POST', path: '/auth/simple/login', body: { username: 'admin', password: 'unleash4all' } });

    expect(first.created).toBe(true);
    expect(first.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}-7a$/);
    expect(second).toEqual({ created: false });
    expect(login.status).toBe(200);
    expect(login.body.rootRole).toBe(1);
    expect(wellKnown.status).toBe(401);
  });

  it('takes UNLEASH_DEFAULT_ADMIN_USERNAME and UNLEASH_DEFAULT_ADMIN_PASSWORD when given, and shows no password', async () => {
    const services = await freshInstanceServices();
    const call = apiClient(services);

    const outcome = await ensureFirstAdmin(services.users, { username: 'ops', password: 'configured pass' });
    const login = await call({ method: 'POST', path: '/auth/simple/login', body: { username: 'ops', password: 'configured pass' } });

    expect(outcome).toEqual({ created: true });
    expect(login.status).toBe(200);
  });
});
