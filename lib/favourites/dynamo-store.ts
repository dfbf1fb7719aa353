import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { eventItem } from '../events/dynamo-store.js';
import type { ChangeEvent } from '../events/model.js';
import { queryCollection } from '../store/query.js';
import { keys, type ItemKey } from '../store/table-design.js';
import { transactWrite } from '../store/transact.js';
import type { FavouriteKind, Favourites } from './model.js';
import type { FavouriteStore } from './store.js';

const keyOf = (userId: number, kind: FavouriteKind, name: string): ItemKey =>
  kind === 'feature' ? keys.favouriteFeature(userId, name) : keys.favouriteProject(userId, name);

/** Favourites in one partition per user (lib/store/table-design.ts), each change in one transaction with its event. */
export class DynamoFavouriteStore implements FavouriteStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async of(userId: number): Promise<Favourites> {
    const items = await queryCollection(this.db, this.tableName, keys.favouritesOf(userId));
    const features = new Set<string>();
    const projects = new Set<string>();
    for (const item of items) {
      if (item.kind === 'feature') features.add(String(item.name));
      else if (item.kind === 'project') projects.add(String(item.name));
    }
    return { features, projects };
  }

  add(userId: number, kind: FavouriteKind, name: string, event: ChangeEvent): Promise<boolean> {
    return transactWrite(this.db, [
      {
        Put: {
          TableName: this.tableName,
          Item: { ...keyOf(userId, kind, name), kind, name, createdAt: event.createdAt },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      eventItem(this.tableName, event),
    ]);
  }

  remove(userId: number, kind: FavouriteKind, name: string, event: ChangeEvent): Promise<boolean> {
    return transactWrite(this.db, [
      { Delete: { TableName: this.tableName, Key: keyOf(userId, kind, name), ConditionExpression: 'attribute_exists(pk)' } },
      eventItem(this.tableName, event),
    ]);
  }
}
