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
    const tokenName = (await services.apiTokens.authenticate(token)).caller.tokenName;
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

describe('project change events', () => {
  it('records project creation, settings, environments and deletion, and counts them as project activity', async () => {
    const services = testServices();
    const call = apiClient(services);
    const token = await adminToken(services);
    const from = new Date(Date.now() - 1000);
    const id = `events-${Date.now().toString(36)}`;
    await call({ method: 'POST', path: '/api/admin/projects', token, body: { id, name: id, environments: ['development'] } });
    await call({ method: 'PUT', path: `/api/admin/projects/${id}`, token, body: { name: 'renamed' } });
    await call({ method: 'POST', path: `/api/admin/projects/${id}/environments`, token, body: { environment: 'production' } });
    const overview = await call({ method: 'GET', path: `/api/admin/projects/${id}`, token });
    await call({ method: 'DELETE', path: `/api/admin/projects/${id}`, token });

    const events = (await services.events.between(from, new Date(Date.now() + 1000))).filter((e) => e.project === id);

    expect(events.map((e) => e.type)).toEqual(['project-created', 'project-updated', 'project-environment-added', 'project-deleted']);
    expect(overview.body.stats.projectActivityCurrentWindow).toBe(3);
  });
});

describe('access change events', () => {
  it('records user and group changes with the acting token, and no personal data', async () => {
    const services = testServices();
    const call = apiClient(services);
    const token = await adminToken(services);
    const from = new Date(Date.now() - 1000);
    const email = `events-${Date.now().toString(36)}@example.com`;
    const user = await call({ method: 'POST', path: '/api/admin/user-admin', token, body: { email, rootRole: 3 } });
    const group = await call({ method: 'POST', path: '/api/admin/groups', token, body: { name: `events-${Date.now().toString(36)}`, users: [{ user: { id: user.body.id } }] } });
    await call({ method: 'DELETE', path: `/api/admin/groups/${group.body.id}`, token });

    const events = (await services.events.between(from, new Date(Date.now() + 1000))).filter(
      (e) => e.changes?.includes(`user:${user.body.id}`) || e.changes?.includes(`group:${group.body.id}`),
    );

    expect(events.map((e) => e.type)).toEqual(['user-created', 'group-created', 'group-deleted']);
    expect(events[1]?.changes).toEqual([`group:${group.body.id}`, 'members:1']);
    expect(JSON.stringify(events)).not.toContain(email);
  });
});
