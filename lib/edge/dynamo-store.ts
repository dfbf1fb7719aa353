import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys, TTL_ATTRIBUTE } from '../store/table-design.js';
import type { ValidationCountStore } from './store.js';

/**
 * One item per address and minute, added to with one atomic ADD: every Lambda container counts
 * on the same item, so the limit holds however many containers answer, and concurrent requests
 * are never lost from the count.
 */
export class DynamoValidationCountStore implements ValidationCountStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async add(address: string, minute: number, tokens: number, expiresAt: number): Promise<number> {
    const { Attributes } = await this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: keys.edgeValidations(address, minute),
      UpdateExpression: 'ADD #tokens :tokens SET #ttl = :expiresAt',
      ExpressionAttributeNames: { '#tokens': 'tokens', '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':tokens': tokens, ':expiresAt': expiresAt },
      ReturnValues: 'UPDATED_NEW',
    }));
    return Number(Attributes?.tokens);
  }
}
