import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NamedItemStore } from '../store/named-item-store.js';
import { keys } from '../store/table-design.js';
import type { Environment } from './model.js';
import type { EnvironmentStore } from './store.js';

export class DynamoEnvironmentStore extends NamedItemStore<Environment> implements EnvironmentStore {
  constructor(db: DynamoDBDocumentClient, tableName: string) {
    super(db, tableName, keys.environment, keys.environments);
  }
}
