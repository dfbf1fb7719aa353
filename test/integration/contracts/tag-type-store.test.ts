import { DynamoTagTypeStore } from '../../../lib/tag-types/dynamo-store.js';
import { tagTypeStoreContract } from '../../support/contracts/tag-type-store.js';
import { freshTable } from '../../support/contracts/fresh-table.js';

tagTypeStoreContract(async () => {
  const { db, tableName } = await freshTable();
  return new DynamoTagTypeStore(db, tableName);
});
