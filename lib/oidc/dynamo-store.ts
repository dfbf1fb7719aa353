import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OidcSettings, PendingLogin } from './model.js';
import type { OidcSettingsStore, PendingLoginStore } from './store.js';
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

/**
 * A login under way is an item of its own with the table's TTL attribute (`expiresAt`, epoch
 * seconds), so abandoned logins go by themselves; reads still check the time, as TTL deletes late.
 */
export class DynamoPendingLoginStore implements PendingLoginStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async insert(login: PendingLogin): Promise<void> {
    const { expiresAt, ...rest } = login;
    await this.db.send(new PutCommand({
      TableName: this.tableName,
      Item: { ...keys.oidcLogin(login.stateHash), ...rest, expiresAt: Math.ceil(expiresAt / 1000) },
    }));
  }

  async take(stateHash: string): Promise<PendingLogin | undefined> {
    const { Attributes } = await this.db.send(new DeleteCommand({
      TableName: this.tableName, Key: keys.oidcLogin(stateHash), ReturnValues: 'ALL_OLD',
    }));
    if (!Attributes) return undefined;
    return {
      stateHash, browserHash: Attributes.browserHash as string, nonce: Attributes.nonce as string,
      codeVerifier: Attributes.codeVerifier as string, redirect: Attributes.redirect as string,
      expiresAt: (Attributes.expiresAt as number) * 1000,
    };
  }
}
