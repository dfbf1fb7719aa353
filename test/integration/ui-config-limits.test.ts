import { describe, expect, it } from 'vitest';
import { RESOURCE_LIMITS } from '../../lib/limits.js';
import { apiClient } from '../support/api.js';
import { adminToken, testServices } from '../support/services.js';

describe("ui-config's resourceLimits (GET /api/admin/ui-config)", () => {
  it('names every limit the 7.6 UI checks, the enforced ones as the API enforces them', async () => {
    const services = testServices();
    const call = apiClient(services);
    const token = await adminToken(services);

    const res = await call({ method: 'GET', path: '/api/admin/ui-config', token });

    expect(res.status).toBe(200);
    expect(Object.keys(res.body.resourceLimits).sort()).toEqual([
      'actionSetActions', 'actionSetFilterValues', 'actionSetFilters', 'actionSetsPerProject', 'apiTokens', 'constraintValues',
      'constraints', 'environments', 'featureEnvironmentStrategies', 'featureFlags', 'projects', 'releaseTemplates', 'segmentValues',
      'segments', 'signalEndpoints', 'signalTokensPerEndpoint', 'strategySegments',
    ]);
    expect(res.body.resourceLimits).toMatchObject(RESOURCE_LIMITS);
    expect(res.body.segmentValuesLimit).toBe(RESOURCE_LIMITS.segmentValues);
    expect(res.body.strategySegmentsLimit).toBe(RESOURCE_LIMITS.strategySegments);
    expect(Object.values(res.body.resourceLimits).every((limit) => Number.isInteger(limit) && (limit as number) > 0)).toBe(true);
  });
});
