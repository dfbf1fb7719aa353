import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TransactWriteItem } from './transact.js';
import { keys } from './table-design.js';

/**
 * The revision item: a counter that every write visible to SDKs bumps in the same
 * transaction. The SDK path keys its cache and ETag on it, so reading it is the whole cost
 * of a warm poll.
 */
export class DynamoRevisionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Strongly consistent, so a poll after an acknowledged write sees that write. */
  async current(): Promise<number> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.revision(), ConsistentRead: true }),
    );
    return typeof Item?.revision === 'number' ? Item.revision : 0;
  }

  /** The transaction item that moves the revision on by one. */
  bump(): TransactWriteItem {
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.revision(),
        UpdateExpression: 'ADD revision :one',
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
  }
}
