import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ClientApplication, ClientApplicationStore } from '../client/store.js';
import { keys } from './table-design.js';

/** Registered SDK applications, one item per appName; a new registration replaces the old. */
export class DynamoClientApplicationStore implements ClientApplicationStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async save(application: ClientApplication): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.tableName, Item: { ...keys.clientApp(application.appName), ...application } }),
    );
  }

  async get(appName: string): Promise<ClientApplication | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.clientApp(appName), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, ...application } = Item;
    return application as ClientApplication;
  }
}
