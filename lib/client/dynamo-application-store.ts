import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryCollection } from '../store/query.js';
import { DEFAULT_SDK_ENVIRONMENT } from '../projects/defaults.js';
import { ALL } from '../tokens/model.js';
import type { ClientApplication, ClientApplicationScope, ClientApplicationStore } from './store.js';
import { keys } from '../store/table-design.js';

const EVERY_PROJECT: ClientApplicationScope = { environment: DEFAULT_SDK_ENVIRONMENT, projects: [ALL] };

/**
 * Registered SDK applications, one item per appName and token scope; a new registration
 * replaces only the one of its own scope.
 */
export class DynamoClientApplicationStore implements ClientApplicationStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async save(application: ClientApplication): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.tableName, Item: { ...keyOf(application.appName, application), ...application } }),
    );
  }

  async get(appName: string, scope: ClientApplicationScope = EVERY_PROJECT): Promise<ClientApplication | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keyOf(appName, scope), ConsistentRead: true }),
    );
    return Item ? toApplication(Item) : undefined;
  }

  /** Every registration: one partition, as small as the number of applications and token scopes. */
  async list(): Promise<ClientApplication[]> {
    return (await queryCollection(this.db, this.tableName, keys.clientApps())).map(toApplication);
  }

  /**
   * One application's registrations, one per token scope. The scope digest after the name has a
   * fixed length, so the prefix finds only names that start with this one, and the exact name is kept.
   */
  async ofApplication(appName: string): Promise<ClientApplication[]> {
    const { pk, skPrefix } = keys.clientApps();
    const items = await queryCollection(this.db, this.tableName, { pk, skPrefix: `${skPrefix}${appName}#` });
    return items.map(toApplication).filter((application) => application.appName === appName);
  }
}

function toApplication(item: Record<string, unknown>): ClientApplication {
  const { pk: _pk, sk: _sk, ...application } = item;
  return application as unknown as ClientApplication;
}

/**
 * The whole SHA-256 of the scope, never a cut: a token's project list has no useful bound on
 * its length, and a digest keeps the key within DynamoDB's 1,024 bytes whatever it holds.
 */
function keyOf(appName: string, { environment, projects }: ClientApplicationScope) {
  const scope = createHash('sha256').update(JSON.stringify([environment, [...projects].sort()])).digest('hex');
  return keys.clientApp(appName, scope);
}
