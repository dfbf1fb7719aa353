import { DynamoEnvironmentStore } from '../../../lib/environments/dynamo-store.js';
import { environmentStoreContract } from '../../support/contracts/environment-store.js';
import { freshTable } from '../../support/contracts/fresh-table.js';

environmentStoreContract(async () => {
  const { db, tableName } = await freshTable();
  return new DynamoEnvironmentStore(db, tableName);
});
