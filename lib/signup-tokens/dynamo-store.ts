import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SignupToken } from './model.js';
import type { SignupTokenChanges, SignupTokenStore } from './store.js';
import { conditionalWrite, isConditionFailed } from '../store/dynamo-errors.js';
import { queryCollection } from '../store/query.js';
import { keys } from '../store/table-design.js';
import { setAttributes } from '../store/update-expression.js';

/**
 * Tokens are keyed by their secret, which the API uses as their name. `expiresAt` is stored as
 * an ISO string in UTC, so the signup transaction can compare it with the current time.
 */
export class DynamoSignupTokenStore implements SignupTokenStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(): Promise<SignupToken[]> {
    return (await queryCollection(this.db, this.tableName, keys.signupTokens())).map(toToken);
  }

  async get(secret: string): Promise<SignupToken | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.signupToken(secret), ConsistentRead: true }),
    );
    return Item ? toToken(Item) : undefined;
  }

  insert(token: SignupToken): Promise<boolean> {
    return conditionalWrite(() =>
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.signupToken(token.secret), ...token },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  async update(secret: string, changes: SignupTokenChanges): Promise<SignupToken | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.signupToken(secret),
          ...setAttributes({ ...changes }),
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? toToken(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailed(error)) return undefined;
      throw error;
    }
  }
}

function toToken(item: Record<string, unknown>): SignupToken {
  const { pk: _pk, sk: _sk, ...token } = item;
  return token as unknown as SignupToken;
}
