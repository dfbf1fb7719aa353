import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Environment } from '../projects/model.js';
import type { EnvironmentStore } from '../projects/store.js';
import { NamedItemStore } from '../store/named-item-store.js';
import { keys } from '../store/table-design.js';

export class DynamoEnvironmentStore extends NamedItemStore<Environment> implements EnvironmentStore {
  constructor(db: DynamoDBDocumentClient, tableName: string) {
    super(db, tableName, keys.environment, keys.environments);
  }
}
