import { inject } from 'vitest';
import type { Feature, FeatureStrategy } from '../../lib/features/model.js';
import type { Services } from '../../local/app-services.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import type { ApiTokenType } from '../../lib/tokens/model.js';
import { testServices, unique } from './services.js';

/**
 * Services on a table of their own, for tests that watch the revision (ETags): on the shared
 * table other tests move it at any moment.
 */
export async function isolatedServices(config: Record<string, string> = {}): Promise<Services> {
  const tableName = unique('client');
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodb').endpoint }, tableName);
  const services = testServices({ ...config, TABLE_NAME: tableName });
  // Tokens may only name environments and projects the table holds: give it a fresh install's.
  await services.firstStart.ensure();
  return services;
}

/** An SDK token with a known secret, stored through the real token service. */
export async function sdkToken(
  services: Services,
  scope: { type?: ApiTokenType; environment?: string; projects?: string[] } = {},
): Promise<string> {
  const projects = scope.projects ?? ['*'];
  const environment = scope.environment ?? 'development';
  const secret = `${projects.length === 1 ? projects[0] : '[]'}:${environment}.${unique('sdk')}`;
  await services.apiTokens.insertKnownSecret(secret, {
    tokenName: unique('sdk'), type: scope.type ?? 'client', environment, projects,
  });
  return secret;
}

export const rollout = (overrides: Partial<FeatureStrategy> = {}): FeatureStrategy => ({
  id: unique('strategy'), name: 'flexibleRollout', title: null, disabled: false, sortOrder: 0, constraints: [],
  parameters: { rollout: '100', stickiness: 'default', groupId: 'g' }, variants: [], segments: [],
  ...overrides,
});

/**
 * Stores a feature aggregate through the feature store port (one transaction that also bumps
 * the revision, as every admin write does). On by default in development with one strategy.
 */
export async function putFeature(services: Services, overrides: Partial<Feature> & { name: string }): Promise<Feature> {
  const before = await services.featureStore.get(overrides.name);
  const feature: Feature = {
    project: 'default', type: 'release', description: null, impressionData: false, stale: false,
    archived: false, archivedAt: null, createdAt: new Date().toISOString(),
    environments: { development: { enabled: true, strategies: [rollout()], variants: [] } },
    tags: [], dependencies: [], children: [], version: (before?.version ?? 0) + 1,
    ...overrides,
  };
  const outcome = await services.featureStore.commit({ writes: [{ before, after: feature }] });
  if (!outcome.ok) throw new Error(`feature ${feature.name} not stored: ${JSON.stringify(outcome)}`);
  return feature;
}
