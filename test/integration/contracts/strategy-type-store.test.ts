import { DynamoStrategyTypeStore } from '../../../lib/strategies/dynamo-store.js';
import { strategyTypeStoreContract } from '../../support/contracts/strategy-type-store.js';
import { freshTable } from '../../support/contracts/fresh-table.js';

strategyTypeStoreContract(async () => {
  const { db, tableName } = await freshTable();
  return new DynamoStrategyTypeStore(db, tableName);
});
