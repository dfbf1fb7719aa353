import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApiToken } from '../tokens/model.js';
import type { ApiTokenStore } from '../tokens/store.js';
import { conditionalWrite } from './dynamo-errors.js';
import { queryCollection } from './query.js';
import { keys } from './table-design.js';

export class DynamoApiTokenStore implements ApiTokenStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async findByHash(secretHash: string): Promise<ApiToken | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.apiToken(secretHash), ConsistentRead: true }),
    );
    return Item ? toToken(Item) : undefined;
  }

  async findById(tokenId: string): Promise<ApiToken | undefined> {
    const [item] = await queryCollection(this.db, this.tableName, keys.apiTokenById(tokenId));
    return item ? toToken(item) : undefined;
  }

  async list(): Promise<ApiToken[]> {
    const items = await queryCollection(this.db, this.tableName, keys.apiTokens());
    return items.map(toToken);
  }

  insert(token: ApiToken): Promise<boolean> {
    return conditionalWrite(() =>
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.apiToken(token.secretHash), ...token },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  async delete(secretHash: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.apiToken(secretHash) }));
  }
}

function toToken(item: Record<string, unknown>): ApiToken {
  const { pk: _pk, sk: _sk, ...token } = item;
  return token as unknown as ApiToken;
}
