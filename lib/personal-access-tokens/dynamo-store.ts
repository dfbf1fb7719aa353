import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { eventItem } from '../events/dynamo-store.js';
import type { ChangeEvent } from '../events/model.js';
import { batchGet } from '../store/batch-get.js';
import { nextCounterValue } from '../store/counter.js';
import { conditionalWrite } from '../store/dynamo-errors.js';
import { keys } from '../store/table-design.js';
import { NotFound } from '../errors.js';
import { transactWriteDetailed, type TransactWriteItem } from '../store/transact.js';
import type { PersonalAccessToken, PersonalTokenGrant, StoredPersonalToken } from './model.js';
import type { CreateRefusal, PersonalTokenStore } from './store.js';

/** One attribute per token in the user's item, so a create and a delete touch only their own. */
const TOKEN_ATTRIBUTE = 'pat_';

type TokenRecord = Pick<StoredPersonalToken, 'description' | 'expiresAt' | 'createdAt' | 'secretHash'>;

/**
 * A user's tokens live in one item: each token an attribute of its own, with the count and the
 * set of descriptions beside them, so one conditional write checks Unleash's limit and the
 * description's uniqueness against concurrent creates. Each token is also an item keyed by its
 * secret's hash, which authentication reads and which carries `seenAt`; both are written and
 * removed in one transaction with the change event.
 */
export class DynamoPersonalTokenStore implements PersonalTokenStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async listOf(userId: number): Promise<PersonalAccessToken[]> {
    const records = await this.recordsOf(userId);
    if (records.length === 0) return [];
    const grants = await batchGet(this.db, this.tableName, records.map(({ record }) => keys.personalTokenBySecret(record.secretHash)));
    const seenAt = new Map(grants.map((grant) => [grant.pk as string, (grant.seenAt as string | null | undefined) ?? null]));
    return records.map(({ id, record }) => ({
      id, userId, description: record.description, expiresAt: record.expiresAt, createdAt: record.createdAt,
      seenAt: seenAt.get(keys.personalTokenBySecret(record.secretHash).pk) ?? null,
    }));
  }

  async create(token: StoredPersonalToken, limit: number, event: ChangeEvent): Promise<CreateRefusal | undefined> {
    const { id, userId, secretHash, description, expiresAt, createdAt } = token;
    const record: TokenRecord = { description, expiresAt, createdAt, secretHash };
    const outcome = await transactWriteDetailed(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.personalTokensOf(userId),
          UpdateExpression: 'SET #token = :token ADD tokenCount :one, descriptions :descriptions',
          ConditionExpression: '(attribute_not_exists(tokenCount) OR tokenCount < :limit) AND NOT contains(descriptions, :description)',
          ExpressionAttributeNames: { '#token': `${TOKEN_ATTRIBUTE}${id}` },
          ExpressionAttributeValues: { ':token': record, ':one': 1, ':descriptions': new Set([description]), ':limit': limit, ':description': description },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: { ...keys.personalTokenBySecret(secretHash), userId, tokenId: id, expiresAt, seenAt: null },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      eventItem(this.tableName, event),
      // A user deleted meanwhile takes its tokens with it (personalTokenRemovals): none is made after.
      { ConditionCheck: { TableName: this.tableName, Key: keys.user(userId), ConditionExpression: 'attribute_exists(pk)' } },
    ]);
    if (outcome.ok) return undefined;
    if (outcome.failedIndex === 3) throw new NotFound(`No user found with id ${userId}`);
    if (outcome.failedIndex !== 0) throw new Error('A new personal access token met a secret already stored');
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.personalTokensOf(userId), ConsistentRead: true }));
    return Number(Item?.tokenCount ?? 0) >= limit ? 'limit' : 'description';
  }

  async delete(userId: number, tokenId: number, event: ChangeEvent): Promise<boolean> {
    const found = (await this.recordsOf(userId)).find(({ id }) => id === tokenId);
    if (!found) return false;
    const outcome = await transactWriteDetailed(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.personalTokensOf(userId),
          UpdateExpression: 'REMOVE #token ADD tokenCount :minusOne DELETE descriptions :descriptions',
          ConditionExpression: 'attribute_exists(#token)',
          ExpressionAttributeNames: { '#token': `${TOKEN_ATTRIBUTE}${tokenId}` },
          ExpressionAttributeValues: { ':minusOne': -1, ':descriptions': new Set([found.record.description]) },
        },
      },
      { Delete: { TableName: this.tableName, Key: keys.personalTokenBySecret(found.record.secretHash) } },
      eventItem(this.tableName, event),
    ]);
    return outcome.ok;
  }

  nextId(): Promise<number> {
    return nextCounterValue(this.db, this.tableName, 'personal-access-token');
  }

  async findBySecretHash(secretHash: string): Promise<PersonalTokenGrant | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.personalTokenBySecret(secretHash), ConsistentRead: true }));
    if (!Item) return undefined;
    return { userId: Item.userId as number, tokenId: Item.tokenId as number, expiresAt: Item.expiresAt as string, seenAt: (Item.seenAt as string | null) ?? null };
  }

  async markSeen(secretHash: string, at: string): Promise<void> {
    await conditionalWrite(() => this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: keys.personalTokenBySecret(secretHash),
      UpdateExpression: 'SET seenAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at },
    })));
  }

  /** The user's token records in id order. */
  private async recordsOf(userId: number): Promise<Array<{ id: number; record: TokenRecord }>> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.personalTokensOf(userId), ConsistentRead: true }));
    return recordsIn(Item);
  }
}

/**
 * The writes that remove every personal access token of a user, for the transaction that deletes
 * the user (at most PERSONAL_TOKEN_LIMIT tokens, so 1 + 10 items): the user's token item, on the
 * count and the tokens read, and each token's item by secret, which authentication reads. A token
 * created or deleted after the read fails that condition, so the delete is read again and takes it too; with no token item,
 * a check that none appeared meanwhile. Unleash 7.6.5 keeps a deleted user's token rows (it marks
 * the user deleted, so they stop authenticating); here nothing of them stays.
 */
export async function personalTokenRemovals(db: DynamoDBDocumentClient, tableName: string, userId: number): Promise<TransactWriteItem[]> {
  const key = keys.personalTokensOf(userId);
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  if (!Item) return [{ ConditionCheck: { TableName: tableName, Key: key, ConditionExpression: 'attribute_not_exists(pk)' } }];
  const count = Item.tokenCount;
  const records = recordsIn(Item);
  // The count alone would let a delete and a create between the read and the write pass
  // unnoticed (same count, another set), leaving the new token's item behind. Every token
  // attribute read still there and the same count means the same set of tokens.
  const held = records.map(({ id }, index) => ({ name: `#token${index}`, attribute: `${TOKEN_ATTRIBUTE}${id}` }));
  const heldCondition = held.map(({ name }) => ` AND attribute_exists(${name})`).join('');
  const heldNames = held.length > 0 ? { ExpressionAttributeNames: Object.fromEntries(held.map(({ name, attribute }) => [name, attribute])) } : {};
  return [
    {
      Delete: {
        TableName: tableName,
        Key: key,
        ...(typeof count === 'number'
          ? { ConditionExpression: `tokenCount = :count${heldCondition}`, ExpressionAttributeValues: { ':count': count } }
          : { ConditionExpression: `attribute_not_exists(tokenCount)${heldCondition}` }),
        ...heldNames,
      },
    },
    ...records.map(({ record }): TransactWriteItem => ({ Delete: { TableName: tableName, Key: keys.personalTokenBySecret(record.secretHash) } })),
  ];
}

function recordsIn(item: Record<string, unknown> | undefined): Array<{ id: number; record: TokenRecord }> {
  return Object.entries(item ?? {})
    .filter(([name]) => name.startsWith(TOKEN_ATTRIBUTE))
    .map(([name, record]) => ({ id: Number(name.slice(TOKEN_ATTRIBUTE.length)), record: record as TokenRecord }))
    .sort((a, b) => a.id - b.id);
}
