import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { loadConfig, type AppConfig } from '../../lib/config.js';
import { createServices, type Services } from '../../local/app-services.js';
import { revisionClock, tokenAuthenticator } from '../../lib/composition/edge.js';
import { featureSnapshots } from '../../lib/composition/feature-snapshots.js';
import { clients } from '../../lib/composition/slices/client.js';
import { featureStore, segmentStore } from '../../lib/composition/stores.js';
import { createComposition, type CompositionOptions } from '../../lib/composition/composition.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { formatSecret } from '../../lib/tokens/model.js';

/** The configuration every test process uses: the run's shared engine and table. */
export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  const { endpoint, tableName } = inject('dynamodb');
  return loadConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'local', ...overrides });
}

/** `options.now`: a clock of the test's own, for reads that name the current hour or day. */
export function testServices(overrides: Record<string, string> = {}, options: CompositionOptions = {}): Services {
  return createServices(createComposition(testConfig(overrides), options));
}

/** A fresh admin token stored through the real token service. */
export async function adminToken(services: Services): Promise<string> {
  const secret = formatSecret(['*'], '*');
  await storeAdminToken(services, secret);
  return secret;
}

/** Stores `secret` as an admin token, through the real token service. */
export async function storeAdminToken(services: Services, secret: string): Promise<void> {
  await services.apiTokens.insertKnownSecret(secret, {
    tokenName: `test-admin-${randomUUID().slice(0, 8)}`,
    type: 'admin',
    environment: '*',
    projects: ['*'],
  });
}

export const unique = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8)}`;

/** Services on a table of their own, seeded like a fresh install: a second, empty instance. */
export async function freshInstanceServices(): Promise<Services> {
  const { endpoint } = inject('dynamodb');
  const tableName = unique('instance');
  await prepareLocalTable({ region: 'local', endpoint }, tableName);
  const services = createServices(createComposition(loadConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'local' })));
  await services.firstStart.ensure();
  return services;
}

/** The whole application's services on `config`, as one process composes them (the local runtime, the test API). */
export function servicesOn(config: AppConfig, options: CompositionOptions = {}): Services {
  return createServices(createComposition(config, options));
}

/** The SDK API's slice alone, as the client function composes it (a cold container of its own), with the parts it is built on. */
export function clientServicesOn(config: AppConfig, options: CompositionOptions = {}) {
  const composition = createComposition(config, options);
  const { clientFeatures, clientMetrics } = composition.once(clients);
  return {
    composition,
    config,
    store: composition.store,
    revisions: composition.store.revisions,
    dynamoRequests: composition.store.dynamoRequests,
    featureStore: composition.once(featureStore),
    segmentStore: composition.once(segmentStore),
    clock: composition.once(revisionClock),
    snapshots: composition.once(featureSnapshots),
    tokens: composition.once(tokenAuthenticator),
    clientFeatures,
    clientMetrics,
  };
}

export type ClientServices = ReturnType<typeof clientServicesOn>;
