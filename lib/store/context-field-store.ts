import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ContextField } from '../context-fields/model.js';
import type { ContextFieldStore } from '../context-fields/store.js';
import { NamedItemStore } from './named-item-store.js';
import { keys } from './table-design.js';

export class DynamoContextFieldStore extends NamedItemStore<ContextField> implements ContextFieldStore {
  constructor(db: DynamoDBDocumentClient, tableName: string) {
    super(db, tableName, keys.contextField, keys.contextFields);
  }
}
