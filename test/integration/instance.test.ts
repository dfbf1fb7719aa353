import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { uiConfigSchema } from '../../lib/instance/schemas.js';
import { adminToken, testServices } from '../support/services.js';
import { apiClient } from '../support/api.js';

describe('GET /health', () => {
  it('answers without a token', async () => {
    const call = apiClient(testServices());

    const res = await call({ method: 'GET', path: '/health' });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ health: 'GOOD' });
  });
});

describe('E16 GET /api/admin/ui-config', () => {
  it('reports the configured URL, base path and the package version, with a stable instance id', async () => {
    const services = testServices({ UNLEASH_URL: 'https://flags.example.com/base', BASE_URI_PATH: '/base/' });
    const call = apiClient(services);
    const token = await adminToken(services);

    const first = await call({ method: 'GET', path: '/api/admin/ui-config', token });
    const second = await apiClient(testServices())({ method: 'GET', path: '/api/admin/ui-config', token });

    expect(first.status).toBe(200);
    expect(uiConfigSchema.safeParse(first.body).success).toBe(true);
    expect(first.body).toMatchObject({
      version: packageJson.version,
      unleashUrl: 'https://flags.example.com/base',
      baseUriPath: '/base',
      authenticationType: 'open-source',
      versionInfo: { current: { oss: packageJson.version, enterprise: '' }, isLatest: true },
    });
    // resourceLimits: test/integration/ui-config-limits.test.ts.
    expect(first.body.versionInfo.instanceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.body.versionInfo.instanceId).toBe(first.body.versionInfo.instanceId);
  });
});
