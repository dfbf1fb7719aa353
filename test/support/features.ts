import type { ApiRequest, ApiResponse } from './api.js';
import { unique } from './services.js';

type Call = (request: ApiRequest) => Promise<ApiResponse>;

/** Small admin-API steps the feature tests repeat; each answers the raw response. */
export function featureSteps(call: Call, token: string) {
  const base = (project: string, feature: string) => `/api/admin/projects/${project}/features/${feature}`;
  return {
    createProject: async (overrides: Record<string, unknown> = {}) => {
      const id = unique('proj');
      const res = await call({ method: 'POST', path: '/api/admin/projects', token, body: { id, name: id, ...overrides } });
      if (res.status !== 201) throw new Error(`project not created: ${res.status} ${res.text}`);
      return id;
    },
    createFeature: async (project = 'default', name = unique('feat'), extra: Record<string, unknown> = {}) => {
      const res = await call({ method: 'POST', path: `/api/admin/projects/${project}/features`, token, body: { name, ...extra } });
      if (res.status !== 201) throw new Error(`feature not created: ${res.status} ${res.text}`);
      return name;
    },
    getFeature: (project: string, feature: string) => call({ method: 'GET', path: base(project, feature), token }),
    addStrategy: (project: string, feature: string, environment: string, body: Record<string, unknown>) =>
      call({ method: 'POST', path: `${base(project, feature)}/environments/${environment}/strategies`, token, body }),
    turn: (project: string, feature: string, environment: string, state: 'on' | 'off') =>
      call({ method: 'POST', path: `${base(project, feature)}/environments/${environment}/${state}`, token }),
    putVariants: (project: string, feature: string, environment: string, body: unknown) =>
      call({ method: 'PUT', path: `${base(project, feature)}/environments/${environment}/variants`, token, body }),
    base,
  };
}

/** The environment entry of a feature response. */
export function environment(feature: { environments: Array<{ name: string }> }, name: string): any {
  const found = feature.environments.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no environment ${name} in ${JSON.stringify(feature.environments.map((e) => e.name))}`);
  return found;
}
