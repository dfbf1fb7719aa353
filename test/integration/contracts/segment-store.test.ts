import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoSegmentStore } from '../../../lib/segments/dynamo-store.js';
import { DynamoRevisionStore } from '../../../lib/store/revision-store.js';
import { keys } from '../../../lib/store/table-design.js';
import { segmentStoreContract } from '../../support/contracts/segment-store.js';
import { freshTable } from '../../support/contracts/fresh-table.js';

segmentStoreContract(async () => {
  const { db, tableName } = await freshTable();
  return {
    store: new DynamoSegmentStore(db, tableName, new DynamoRevisionStore(db, tableName)),
    // The feature store's own update of a segment's count, in a feature's transaction there.
    putInUse: async (id, by = 1) => {
      await db.send(new UpdateCommand({
        TableName: tableName,
        Key: keys.segment(id),
        UpdateExpression: 'ADD refCount :delta',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':delta': by },
      }));
    },
  };
});
