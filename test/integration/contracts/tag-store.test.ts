import { DynamoTagStore } from '../../../lib/tag-types/dynamo-store.js';
import { tagStoreContract } from '../../support/contracts/tag-store.js';
import { freshTable } from '../../support/contracts/fresh-table.js';

tagStoreContract(async () => {
  const { db, tableName } = await freshTable();
  return new DynamoTagStore(db, tableName);
});
