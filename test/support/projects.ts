import type { Feature, FeatureStrategy } from '../../lib/features/model.js';
import type { Services } from '../../local/app-services.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import type { ApiRequest, ApiResponse } from './api.js';
import { testConfig, testServices, unique } from './services.js';

type Call = (request: ApiRequest) => Promise<ApiResponse>;

/** Admin-API steps the project and catalogue tests repeat; each throws unless it succeeded. */
export function projectSteps(call: Call, token: string) {
  return {
    /** With the seeded environments only, whatever other tests add to the shared table. */
    createProject: async (body: Record<string, unknown> = {}): Promise<string> => {
      const id = typeof body.id === 'string' ? body.id : unique('proj');
      const res = await call({
        method: 'POST', path: '/api/admin/projects', token,
        body: { id, name: `Project ${id}`, environments: ['development', 'production'], ...body },
      });
      if (res.status !== 201) throw new Error(`project not created: ${res.status} ${res.text}`);
      return id;
    },
    /**
     * Disabled unless asked otherwise: a new project gets every enabled environment, and the
     * tests share one table, so an enabled one would show up in other tests' projects.
     */
    createEnvironment: async (body: Record<string, unknown> = {}): Promise<string> => {
      const name = typeof body.name === 'string' ? body.name : unique('env');
      const res = await call({ method: 'POST', path: '/api/admin/environments', token, body: { name, type: 'test', enabled: false, ...body } });
      if (res.status !== 201) throw new Error(`environment not created: ${res.status} ${res.text}`);
      return name;
    },
    createSegment: async (body: Record<string, unknown> = {}): Promise<number> => {
      const res = await call({
        method: 'POST', path: '/api/admin/segments', token,
        body: { name: unique('seg'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }], ...body },
      });
      if (res.status !== 201) throw new Error(`segment not created: ${res.status} ${res.text}`);
      return res.body.id as number;
    },
  };
}

/**
 * Stores a feature through the feature store port, the way the feature services do (with the
 * project's feature count and the segments' reference counts in the same transaction), so
 * these tests do not depend on the feature endpoints.
 */
export async function storeFeature(services: Services, project: string, overrides: Partial<Feature> = {}): Promise<Feature> {
  const feature: Feature = {
    name: unique('feat'), project, type: 'release', description: null, impressionData: false, stale: false,
    archived: false, archivedAt: null, createdAt: new Date().toISOString(), environments: {}, tags: [],
    dependencies: [], children: [], version: 1, ...overrides,
  };
  const outcome = await services.featureStore.commit({
    writes: [{ before: undefined, after: feature }],
    projectFeatureCounts: { [project]: { delta: feature.archived ? 0 : 1, applyLimit: false } },
  });
  if (!outcome.ok) throw new Error(`feature not stored: ${JSON.stringify(outcome)}`);
  return feature;
}

/** A strategy that uses the given segments, for a feature's development environment. */
export function strategyUsing(segments: number[]): FeatureStrategy {
  return {
    id: unique('strategy'), name: 'default', title: null, disabled: false, sortOrder: 0,
    constraints: [], parameters: {}, variants: [], segments,
  };
}

/** Services on a table of their own, not yet seeded, for tests that must see or change a whole collection. */
export async function freshServices(): Promise<Services> {
  const tableName = unique('fresh');
  const config = testConfig({ TABLE_NAME: tableName });
  await prepareLocalTable({ region: config.region, endpoint: config.dynamodbEndpoint }, tableName);
  return testServices({ TABLE_NAME: tableName });
}
