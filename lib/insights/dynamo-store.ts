import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DailySnapshot } from './snapshot.js';
import type { SnapshotStore } from './store.js';
import { queryCollection } from '../store/query.js';
import { keys } from '../store/table-design.js';

export class DynamoSnapshotStore implements SnapshotStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async save(snapshot: DailySnapshot): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...keys.snapshot(snapshot.date), ...snapshot } }));
  }

  async list(): Promise<DailySnapshot[]> {
    const items = await queryCollection(this.db, this.tableName, keys.snapshots());
    return items.map(({ pk: _pk, sk: _sk, ...snapshot }) => snapshot as DailySnapshot);
  }
}
