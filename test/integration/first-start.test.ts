import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { createBootstrapHandler } from '../../functions/bootstrap/handler.js';
import { applyBootstrapTokens } from '../../lib/tokens/bootstrap.js';
import { apiClient } from '../support/api.js';
import { freshServices } from '../support/projects.js';
import { adminToken } from '../support/services.js';

// Each test has a table of its own (unseeded until it says so), so deleting seeded data here
// cannot disturb the other tests.

describe('first start data', () => {
  it('gives a fresh table the project, environments, context fields and tag type of a fresh Unleash', async () => {
    const services = await freshServices();

    const planted = await services.firstStart.ensure();

    expect(planted).toBe(true);
    expect(await services.projects.getProject('default')).toMatchObject({
      id: 'default', name: 'Default', description: 'Default project', mode: 'open', defaultStickiness: 'default',
      featureLimit: null, featureNaming: null, environments: expect.arrayContaining(['development', 'production']),
    });
    expect((await services.environments.list()).map(({ name, type, sortOrder, enabled }) => ({ name, type, sortOrder, enabled }))).toEqual([
      { name: 'development', type: 'development', sortOrder: 100, enabled: true },
      { name: 'production', type: 'production', sortOrder: 200, enabled: true },
    ]);
    const fields = await services.contextFields.list();
    expect(fields.map((field) => field.name)).toEqual(['environment', 'userId', 'appName', 'currentTime', 'sessionId', 'remoteAddress']);
    expect(fields.filter((field) => field.stickiness).map((field) => field.name)).toEqual(['sessionId']);
    expect(await services.tagTypes.list()).toEqual([{ name: 'simple', description: expect.any(String), icon: '#' }]);
  });

  it('writes the data once when several processes start at the same time', async () => {
    const services = await freshServices();

    const results = await Promise.all([1, 2, 3, 4].map(() => services.firstStart.ensure()));

    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('respects later deletions: data a user removed is not brought back by the next start', async () => {
    const services = await freshServices();
    await services.firstStart.ensure();
    const call = apiClient(services);
    const token = await adminToken(services);
    await call({ method: 'DELETE', path: '/api/admin/tag-types/simple', token });
    await call({ method: 'DELETE', path: '/api/admin/context/remoteAddress', token });

    const again = await services.firstStart.ensure();

    expect(again).toBe(false);
    expect(await services.tagTypes.exists('simple')).toBe(false);
    expect((await services.contextFields.list()).map((field) => field.name)).not.toContain('remoteAddress');
  });

  it('lets bootstrap tokens name the seeded project and environments', async () => {
    const services = await freshServices();
    await services.firstStart.ensure();

    const { token } = await services.apiTokens.create({ tokenName: 'sdk', type: 'client', environment: 'production', projects: ['default'] });

    expect(token).toMatchObject({ environment: 'production', projects: ['default'] });
  });
});

describe('cloud bootstrap', () => {
  it('seeds the table before it stores the admin token, so the first API call finds project default', async () => {
    const services = await freshServices();
    const steps: string[] = [];
    const cloudFormation = createServer((request, response) => request.resume().on('end', () => response.end()));
    await new Promise<void>((resolve) => cloudFormation.listen(0, '127.0.0.1', resolve));
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const handler = createBootstrapHandler(() => ({
      readAdminSecret: async () => 'cloud-secret',
      seedFirstStart: async () => {
        steps.push('seed');
        return services.firstStart.ensure();
      },
      applyAdminToken: async (token) => {
        steps.push('token');
        return applyBootstrapTokens(services.apiTokens, { admin: [token], client: [] });
      },
    }));

    try {
      await handler({
        RequestType: 'Create', ServiceToken: 'arn', StackId: 'stack', RequestId: 'r', LogicalResourceId: 'Bootstrap',
        ResourceType: 'Custom::BootstrapAdminToken', ResourceProperties: { ServiceToken: 'arn' },
        ResponseURL: `http://127.0.0.1:${(cloudFormation.address() as AddressInfo).port}/response`,
      });
    } finally {
      cloudFormation.close();
      vi.restoreAllMocks();
    }

    const overview = await apiClient(services)({ method: 'GET', path: '/api/admin/projects/default', token: '*:*.cloud-secret' });
    expect(steps).toEqual(['seed', 'token']);
    expect(overview.status).toBe(200);
    expect(overview.body.name).toBe('Default');
  });
});
