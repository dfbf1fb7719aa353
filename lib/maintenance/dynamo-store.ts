import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { eventItem } from '../events/dynamo-store.js';
import type { ChangeEvent } from '../events/model.js';
import { keys } from '../store/table-design.js';
import { transactWrite } from '../store/transact.js';
import type { MaintenanceStore } from './store.js';

/** The flag is one small item among the service's settings. */
export class DynamoMaintenanceStore implements MaintenanceStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async read(): Promise<boolean | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.maintenanceSettings(), ConsistentRead: true }));
    return Item ? Item.enabled === true : undefined;
  }

  async write(enabled: boolean, event: ChangeEvent): Promise<void> {
    await transactWrite(this.db, [
      { Put: { TableName: this.tableName, Item: { ...keys.maintenanceSettings(), enabled, updatedAt: event.createdAt, updatedBy: event.createdBy } } },
      eventItem(this.tableName, event),
    ]);
  }
}
