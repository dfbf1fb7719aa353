import { describe } from 'vitest';
import type { ContextField } from '../../../lib/context-fields/model.js';
import type { ContextFieldStore } from '../../../lib/context-fields/store.js';
import { namedItemEditCases, namedItemReadCases, type MakeStore } from './named-items.js';

const field = (name: string): ContextField => ({
  name,
  description: null,
  stickiness: false,
  sortOrder: 10,
  legalValues: [{ value: 'acme', description: 'Acme Inc.' }, { value: 'globex' }],
  createdAt: '2026-01-02T03:04:05.000Z',
});

/** What every ContextFieldStore answers: the fake and the DynamoDB adapter run these cases. */
export function contextFieldStoreContract(makeStore: MakeStore<ContextFieldStore>): void {
  describe('the ContextFieldStore contract', () => {
    namedItemReadCases(makeStore, field);
    // A PUT replaces everything but createdAt, which the store keeps.
    namedItemEditCases(makeStore, field, ({ createdAt: _createdAt, ...rest }) => ({
      ...rest,
      description: 'Customers by tenant',
      stickiness: true,
      sortOrder: 3,
      legalValues: [{ value: 'initech' }],
    }));
  });
}
