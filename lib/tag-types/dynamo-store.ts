import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TagType } from './model.js';
import type { TagTypeStore } from './store.js';
import { NamedItemStore } from '../store/named-item-store.js';
import { keys } from '../store/table-design.js';

export class DynamoTagTypeStore extends NamedItemStore<TagType> implements TagTypeStore {
  constructor(db: DynamoDBDocumentClient, tableName: string) {
    super(db, tableName, keys.tagType, keys.tagTypes);
  }
}
