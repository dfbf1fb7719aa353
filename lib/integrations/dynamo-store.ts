import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChangeEvent } from '../events/model.js';
import { eventItem } from '../events/dynamo-store.js';
import { nextCounterValue } from '../store/counter.js';
import { queryCollection } from '../store/query.js';
import { keys, TTL_ATTRIBUTE } from '../store/table-design.js';
import { transactWriteDetailed } from '../store/transact.js';
import type { DeliveryRecord } from './model.js';
import type { DeliveryLog, IntegrationStore, StoredIntegration } from './store.js';

export class DynamoIntegrationStore implements IntegrationStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(): Promise<StoredIntegration[]> {
    return (await queryCollection(this.db, this.tableName, keys.integrations())).map(fromItem);
  }

  async get(id: number): Promise<StoredIntegration | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.integration(id), ConsistentRead: true }));
    return Item ? fromItem(Item) : undefined;
  }

  nextId(): Promise<number> {
    return nextCounterValue(this.db, this.tableName, 'integration');
  }

  async insert(integration: StoredIntegration, event: ChangeEvent): Promise<void> {
    await this.write(integration, 'attribute_not_exists(pk)', event);
  }

  replace(integration: StoredIntegration, event: ChangeEvent): Promise<boolean> {
    return this.write(integration, 'attribute_exists(pk)', event);
  }

  async delete(id: number, event: ChangeEvent): Promise<boolean> {
    const outcome = await transactWriteDetailed(this.db, [
      { Delete: { TableName: this.tableName, Key: keys.integration(id), ConditionExpression: 'attribute_exists(pk)' } },
      eventItem(this.tableName, event),
    ]);
    return outcome.ok;
  }

  private async write(integration: StoredIntegration, condition: string, event: ChangeEvent): Promise<boolean> {
    const outcome = await transactWriteDetailed(this.db, [
      { Put: { TableName: this.tableName, Item: { ...keys.integration(integration.id), ...integration }, ConditionExpression: condition } },
      eventItem(this.tableName, event),
    ]);
    return outcome.ok;
  }
}

/** How long a delivery stays in the log; the log answers the newest 100 of them at most. */
export const DELIVERY_RETENTION_DAYS = 7;

export class DynamoDeliveryLog implements DeliveryLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async record(delivery: DeliveryRecord): Promise<void> {
    const expiresAt = Math.floor(Date.parse(delivery.createdAt) / 1000) + DELIVERY_RETENTION_DAYS * 86_400;
    await this.db.send(new PutCommand({
      TableName: this.tableName,
      Item: { ...keys.integrationDelivery(delivery.integrationId, delivery.id), ...delivery, [TTL_ATTRIBUTE]: expiresAt },
    }));
  }

  async latest(integrationId: number, limit: number, offset: number): Promise<DeliveryRecord[]> {
    const { pk, skPrefix } = keys.integrationDeliveries(integrationId);
    const { Items } = await this.db.send(new QueryCommand({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      ScanIndexForward: false,
      // Offset and limit are both bounded by the route (at most 100 + 10,000 items, one or a few pages).
      Limit: offset + limit,
      ConsistentRead: true,
    }));
    return (Items ?? []).slice(offset, offset + limit).map((item) => {
      const { pk: _pk, sk: _sk, [TTL_ATTRIBUTE]: _ttl, ...delivery } = item;
      return delivery as DeliveryRecord;
    });
  }
}

function fromItem(item: Record<string, unknown>): StoredIntegration {
  const { pk: _pk, sk: _sk, ...integration } = item;
  return { parameters: {}, sealedParameters: {}, ...integration } as StoredIntegration;
}
