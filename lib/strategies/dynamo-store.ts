import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { eventItem } from '../events/dynamo-store.js';
import { changeEvent } from '../events/model.js';
import type { StrategyType } from './model.js';
import type { StoredStrategyType, StrategyTypeStore } from './store.js';
import { queryCollection } from '../store/query.js';
import { keys } from '../store/table-design.js';
import { transactWriteDetailed, type TransactWriteItem } from '../store/transact.js';

/** Items carry `builtIn: true` when they only hold a built-in type's `deprecated` state. */
export class DynamoStrategyTypeStore implements StrategyTypeStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The write and its change event, all or nothing: false when the write's condition failed. */
  private async withEvent(write: TransactWriteItem, type: string, name: string, actor: string): Promise<boolean> {
    return (await transactWriteDetailed(this.db, [write, strategyEvent(this.tableName, type, name, actor)])).ok;
  }

  async list(): Promise<StoredStrategyType[]> {
    const items = await queryCollection(this.db, this.tableName, keys.strategyTypes());
    return items.map(toStored);
  }

  async get(name: string): Promise<StoredStrategyType | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.strategyType(name), ConsistentRead: true }),
    );
    return Item ? toStored(Item) : undefined;
  }

  insert(type: StrategyType, actor = 'system'): Promise<boolean> {
    return this.withEvent({
      Put: {
        TableName: this.tableName,
        Item: { ...keys.strategyType(type.name), builtIn: false, ...type },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }, 'strategy-created', type.name, actor);
  }

  /** An update, not a put: the item's `usageMark` (kept by the feature store) must survive an edit. */
  replace(type: StrategyType, actor = 'system'): Promise<boolean> {
    const fields = Object.entries(type);
    return this.withEvent({
      Update: {
        TableName: this.tableName,
        Key: keys.strategyType(type.name),
        UpdateExpression: `SET ${fields.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk) AND builtIn = :false',
        ExpressionAttributeNames: Object.fromEntries(fields.map(([field], index) => [`#f${index}`, field])),
        ExpressionAttributeValues: { ':false': false, ...Object.fromEntries(fields.map(([, value], index) => [`:v${index}`, value])) },
      },
    }, 'strategy-updated', type.name, actor);
  }

  setDeprecated(name: string, deprecated: boolean, builtIn: boolean, actor = 'system'): Promise<boolean> {
    return this.withEvent({
      Update: {
        TableName: this.tableName,
        Key: keys.strategyType(name),
        UpdateExpression: builtIn
          ? 'SET deprecated = :deprecated, builtIn = :true, #name = :name'
          : 'SET deprecated = :deprecated',
        ConditionExpression: builtIn ? undefined : 'attribute_exists(pk)',
        ExpressionAttributeNames: builtIn ? { '#name': 'name' } : undefined,
        ExpressionAttributeValues: builtIn
          ? { ':deprecated': deprecated, ':true': true, ':name': name }
          : { ':deprecated': deprecated },
      },
    }, deprecated ? 'strategy-deprecated' : 'strategy-reactivated', name, actor);
  }

  async delete(name: string, usageMark: number, actor = 'system'): Promise<'done' | 'missing' | 'changed'> {
    const deleted = await this.withEvent({
      Delete: {
        TableName: this.tableName,
        Key: keys.strategyType(name),
        // A type nobody ever used has no mark yet.
        ConditionExpression: usageMark === 0
          ? 'builtIn = :false AND attribute_not_exists(usageMark)'
          : 'builtIn = :false AND usageMark = :mark',
        ExpressionAttributeValues: usageMark === 0 ? { ':false': false } : { ':false': false, ':mark': usageMark },
      },
    }, 'strategy-deleted', name, actor);
    if (deleted) return 'done';
    const now = await this.get(name);
    return now?.kind === 'custom' ? 'changed' : 'missing';
  }
}

/** Strategy type changes are recorded with Unleash's event types, in the change's own transaction. */
function strategyEvent(tableName: string, type: string, name: string, actor: string): TransactWriteItem {
  return eventItem(tableName, changeEvent(type, { changes: [name] }, actor));
}

function toStored(item: Record<string, unknown>): StoredStrategyType {
  if (item.builtIn === true) {
    return { kind: 'built-in-overlay', name: String(item.name), deprecated: item.deprecated === true };
  }
  const { pk: _pk, sk: _sk, builtIn: _builtIn, usageMark, ...type } = item;
  return { kind: 'custom', type: type as unknown as StrategyType, usageMark: typeof usageMark === 'number' ? usageMark : 0 };
}
