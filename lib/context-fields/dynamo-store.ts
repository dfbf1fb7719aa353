import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ContextField } from './model.js';
import type { ContextFieldStore } from './store.js';
import { NamedItemStore } from '../store/named-item-store.js';
import { keys } from '../store/table-design.js';

export class DynamoContextFieldStore extends NamedItemStore<ContextField> implements ContextFieldStore {
  constructor(db: DynamoDBDocumentClient, tableName: string) {
    super(db, tableName, keys.contextField, keys.contextFields);
  }
}
