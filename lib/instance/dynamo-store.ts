import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { InstanceStore } from './store.js';
import { keys } from '../store/table-design.js';

export class DynamoInstanceStore implements InstanceStore {
  private cached: string | undefined;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** One atomic write both creates and reads the id, so concurrent first calls agree. */
  async instanceId(candidate: string): Promise<string> {
    if (this.cached) return this.cached;
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.instance(),
        UpdateExpression: 'SET instanceId = if_not_exists(instanceId, :candidate)',
        ExpressionAttributeValues: { ':candidate': candidate },
        ReturnValues: 'ALL_NEW',
      }),
    );
    this.cached = String(Attributes?.instanceId);
    return this.cached;
  }
}
