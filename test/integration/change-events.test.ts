import { describe, expect, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { adminToken, testServices } from '../support/services.js';

describe('change events', () => {
  it('records each feature change once, with what changed and the token that changed it', async () => {
    const services = testServices();
    const call = apiClient(services);
    const token = await adminToken(services);
    const steps = featureSteps(call, token);
    const tokenName = (await services.apiTokens.authenticate(token)).tokenName;
    const from = new Date(Date.now() - 1000);
    const name = await steps.createFeature();
    await steps.turn('default', name, 'production', 'on');
    await call({ method: 'POST', path: '/api/admin/projects/default/stale', token, body: { features: [name], stale: false } });
    await call({ method: 'POST', path: '/api/admin/projects/default/archive', token, body: { features: [name] } });

    const events = (await services.events.between(from, new Date(Date.now() + 1000))).filter((e) => e.featureName === name);

    expect(events.map((e) => e.changes)).toEqual([['created'], ['enabled:production', 'strategies:production'], ['archived']]);
    expect(events.every((e) => e.createdBy === tokenName && e.project === 'default')).toBe(true);
  });
});
