import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { eventItem } from '../events/dynamo-store.js';
import { changeEvent } from '../events/model.js';
import { keys } from '../store/table-design.js';
import { transactWriteDetailed } from '../store/transact.js';
import type { FeatureTypeLifetimes } from './model.js';

/** Each type's lifetime is an attribute of the one settings item, so setting one never overwrites another's. */
const LIFETIME = 'lifetime:';

/**
 * The expected lifetimes an admin set for feature types: one small item, read strongly
 * consistent (an admin who saves a lifetime sees it in the next list), written with its change
 * event in one transaction.
 */
export class DynamoFeatureTypeStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async lifetimes(): Promise<FeatureTypeLifetimes> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.featureTypeSettings(), ConsistentRead: true }));
    return Object.fromEntries(Object.entries(Item ?? {})
      .filter(([attribute]) => attribute.startsWith(LIFETIME))
      .map(([attribute, days]) => [attribute.slice(LIFETIME.length), typeof days === 'number' ? days : null]));
  }

  async setLifetime(type: string, days: number | null, actor: string): Promise<void> {
    await transactWriteDetailed(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.featureTypeSettings(),
          UpdateExpression: 'SET #lifetime = :days',
          ExpressionAttributeNames: { '#lifetime': `${LIFETIME}${type}` },
          ExpressionAttributeValues: { ':days': days },
        },
      },
      eventItem(this.tableName, changeEvent('feature-type-updated', { changes: [`${type}: ${days ?? 'never'}`] }, actor)),
    ]);
  }
}
