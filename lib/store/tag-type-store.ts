import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TagType } from '../tag-types/model.js';
import type { TagTypeStore } from '../tag-types/store.js';
import { NamedItemStore } from './named-item-store.js';
import { keys } from './table-design.js';

export class DynamoTagTypeStore extends NamedItemStore<TagType> implements TagTypeStore {
  constructor(db: DynamoDBDocumentClient, tableName: string) {
    super(db, tableName, keys.tagType, keys.tagTypes);
  }
}
