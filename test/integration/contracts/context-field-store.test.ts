import { DynamoContextFieldStore } from '../../../lib/context-fields/dynamo-store.js';
import { contextFieldStoreContract } from '../../support/contracts/context-field-store.js';
import { freshTable } from '../../support/contracts/fresh-table.js';

contextFieldStoreContract(async () => {
  const { db, tableName } = await freshTable();
  return new DynamoContextFieldStore(db, tableName);
});
