import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StrategyType } from './model.js';
import type { StoredStrategyType, StrategyTypeStore } from './store.js';
import { conditionalWrite } from '../store/dynamo-errors.js';
import { queryCollection } from '../store/query.js';
import { keys } from '../store/table-design.js';

/** Items carry `builtIn: true` when they only hold a built-in type's `deprecated` state. */
export class DynamoStrategyTypeStore implements StrategyTypeStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

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

  insert(type: StrategyType): Promise<boolean> {
    return conditionalWrite(() =>
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.strategyType(type.name), builtIn: false, ...type },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  /** An update, not a put: the item's `usageMark` (kept by the feature store) must survive an edit. */
  replace(type: StrategyType): Promise<boolean> {
    const fields = Object.entries(type);
    return conditionalWrite(() =>
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.strategyType(type.name),
          UpdateExpression: `SET ${fields.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk) AND builtIn = :false',
          ExpressionAttributeNames: Object.fromEntries(fields.map(([field], index) => [`#f${index}`, field])),
          ExpressionAttributeValues: { ':false': false, ...Object.fromEntries(fields.map(([, value], index) => [`:v${index}`, value])) },
        }),
      ),
    );
  }

  setDeprecated(name: string, deprecated: boolean, builtIn: boolean): Promise<boolean> {
    return conditionalWrite(() =>
      this.db.send(
        new UpdateCommand({
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
        }),
      ),
    );
  }

  async delete(name: string, usageMark: number): Promise<'done' | 'missing' | 'changed'> {
    const deleted = await conditionalWrite(() =>
      this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.strategyType(name),
          // A type nobody ever used has no mark yet.
          ConditionExpression: usageMark === 0
            ? 'builtIn = :false AND attribute_not_exists(usageMark)'
            : 'builtIn = :false AND usageMark = :mark',
          ExpressionAttributeValues: usageMark === 0 ? { ':false': false } : { ':false': false, ':mark': usageMark },
        }),
      ),
    );
    if (deleted) return 'done';
    const now = await this.get(name);
    return now?.kind === 'custom' ? 'changed' : 'missing';
  }
}

function toStored(item: Record<string, unknown>): StoredStrategyType {
  if (item.builtIn === true) {
    return { kind: 'built-in-overlay', name: String(item.name), deprecated: item.deprecated === true };
  }
  const { pk: _pk, sk: _sk, builtIn: _builtIn, usageMark, ...type } = item;
  return { kind: 'custom', type: type as unknown as StrategyType, usageMark: typeof usageMark === 'number' ? usageMark : 0 };
}
