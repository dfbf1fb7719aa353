import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite } from './dynamo-errors.js';
import { queryCollection } from './query.js';
import type { CollectionPrefix, ItemKey } from './table-design.js';
import { setAttributes } from './update-expression.js';

/**
 * The small admin-managed collections keyed by a name (environments, context fields, tag
 * types): one partition each, one item per member, writes conditional on existence.
 */
export class NamedItemStore<T extends { name: string }> {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly key: (name: string) => ItemKey,
    private readonly collection: () => CollectionPrefix,
  ) {}

  async list(): Promise<T[]> {
    return (await queryCollection(this.db, this.tableName, this.collection())).map((item) => this.fromItem(item));
  }

  async get(name: string): Promise<T | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.key(name), ConsistentRead: true }));
    return Item ? this.fromItem(Item) : undefined;
  }

  insert(value: T): Promise<boolean> {
    return conditionalWrite(() =>
      this.db.send(new PutCommand({ TableName: this.tableName, Item: this.toItem(value), ConditionExpression: 'attribute_not_exists(pk)' })),
    );
  }

  /** Sets the given attributes of an existing member and leaves the others (such as createdAt). */
  replace(value: Partial<T> & { name: string }): Promise<boolean> {
    const { name, ...fields } = value;
    return conditionalWrite(() =>
      this.db.send(
        new UpdateCommand({ TableName: this.tableName, Key: this.key(name), ...setAttributes(fields), ConditionExpression: 'attribute_exists(pk)' }),
      ),
    );
  }

  delete(name: string): Promise<boolean> {
    return conditionalWrite(() =>
      this.db.send(new DeleteCommand({ TableName: this.tableName, Key: this.key(name), ConditionExpression: 'attribute_exists(pk)' })),
    );
  }

  /** The item as stored; the seed writes members the same way. */
  toItem(value: T): Record<string, unknown> {
    return { ...this.key(value.name), ...value };
  }

  private fromItem(item: Record<string, unknown>): T {
    const { pk: _pk, sk: _sk, ...value } = item;
    return value as unknown as T;
  }
}
