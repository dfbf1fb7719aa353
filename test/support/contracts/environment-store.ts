import { describe } from 'vitest';
import type { Environment } from '../../../lib/environments/model.js';
import type { EnvironmentStore } from '../../../lib/environments/store.js';
import { namedItemReadCases, type MakeStore } from './named-items.js';

const environment = (name: string): Environment => ({
  name,
  type: 'test',
  enabled: true,
  protected: false,
  sortOrder: 9999,
  createdAt: '2026-01-02T03:04:05.000Z',
});

/**
 * What every EnvironmentStore answers: the fake and the DynamoDB adapter run these cases. The
 * store lists by key; the sort order Unleash shows is the service's.
 */
export function environmentStoreContract(makeStore: MakeStore<EnvironmentStore>): void {
  describe('the EnvironmentStore contract', () => {
    namedItemReadCases(makeStore, environment);
  });
}
