import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Tag } from '../features/model.js';
import type { TagType } from './model.js';
import type { TagStore, TagTypeStore } from './store.js';
import { conditionalWrite } from '../store/dynamo-errors.js';
import { NamedItemStore } from '../store/named-item-store.js';
import { queryCollection } from '../store/query.js';
import { keys } from '../store/table-design.js';

export class DynamoTagTypeStore extends NamedItemStore<TagType> implements TagTypeStore {
  constructor(db: DynamoDBDocumentClient, tableName: string) {
    super(db, tableName, keys.tagType, keys.tagTypes);
  }
}

export class DynamoTagStore implements TagStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(type?: string): Promise<Tag[]> {
    const items = await queryCollection(this.db, this.tableName, keys.tags(type));
    return items.map((item) => ({ type: String(item.type), value: String(item.value) }));
  }

  insert(tag: Tag): Promise<boolean> {
    return conditionalWrite(() =>
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.tag(tag.type, tag.value), type: tag.type, value: tag.value },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }
}
