import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { loadConfig, type AppConfig } from '../../lib/config.js';
import { createServices, type Services } from '../../lib/composition/services.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { formatSecret } from '../../lib/tokens/model.js';

/** The configuration every test process uses: the run's shared engine and table. */
export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  const { endpoint, tableName } = inject('dynamodb');
  return loadConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'local', ...overrides });
}

/** `options.now`: a clock of the test's own, for reads that name the current hour or day. */
export function testServices(overrides: Record<string, string> = {}, options: Parameters<typeof createServices>[1] = {}): Services {
  return createServices(testConfig(overrides), options);
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
  const services = createServices(loadConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'local' }));
  await services.firstStart.ensure();
  return services;
}
