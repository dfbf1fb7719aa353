import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApiToken } from './model.js';
import type { ApiTokenStore } from './store.js';
import { queryCollection } from '../store/query.js';
import type { DynamoRevisionStore } from '../store/revision-store.js';
import { keys } from '../store/table-design.js';

/**
 * API tokens, one item per secret hash. Every insert and delete moves the token-change counter
 * on the revision item in the same transaction, so no instance can miss a revocation.
 */
export class DynamoApiTokenStore implements ApiTokenStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly revisions: Pick<DynamoRevisionStore, 'commitTokenChange'>,
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

  async insert(token: ApiToken): Promise<boolean> {
    const outcome = await this.revisions.commitTokenChange([
      {
        Put: {
          TableName: this.tableName,
          Item: { ...keys.apiToken(token.secretHash), ...token },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
    return outcome.ok;
  }

  async delete(secretHash: string): Promise<void> {
    await this.revisions.commitTokenChange([{ Delete: { TableName: this.tableName, Key: keys.apiToken(secretHash) } }]);
  }
}

function toToken(item: Record<string, unknown>): ApiToken {
  const { pk: _pk, sk: _sk, ...token } = item;
  return token as unknown as ApiToken;
}
