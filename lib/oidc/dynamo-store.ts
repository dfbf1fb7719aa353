import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OidcSettings } from './model.js';
import type { OidcSettingsStore } from './store.js';
import { keys } from '../store/table-design.js';

/** One item; a POST replaces the whole settings document, so the last write wins. */
export class DynamoOidcSettingsStore implements OidcSettingsStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(): Promise<OidcSettings | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.oidcSettings(), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, ...settings } = Item;
    return settings as OidcSettings;
  }

  async put(settings: OidcSettings): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...keys.oidcSettings(), ...settings } }));
  }
}

