import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoGroupStore } from '../../../lib/groups/dynamo-store.js';
import { keys } from '../../../lib/store/table-design.js';
import { groupStoreContract } from '../../support/contracts/group-store.js';
import { freshTable } from '../../support/contracts/fresh-table.js';

groupStoreContract(async () => {
  const { db, tableName } = await freshTable();
  return {
    store: new DynamoGroupStore(db, tableName),
    // The group store only checks that a user's item exists; what the item holds is the user store's.
    addUser: async (userId) => {
      await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.user(userId), id: userId } }));
    },
  };
});
