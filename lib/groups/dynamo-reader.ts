import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryCollection } from '../store/query.js';
import { keys } from '../store/table-design.js';
import type { Group, GroupMember } from './model.js';

/** How a group item keeps its members: a map keyed by user id. */
export type StoredMembers = Record<string, { joinedAt: string; createdBy: string }>;

/**
 * Groups read on DynamoDB: all the admin edge reads of groups (the root roles they give a
 * session's user), so every admin function's bundle holds this instead of the store's writes
 * (`DynamoGroupStore` extends it).
 */
export class DynamoGroupReader {
  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly tableName: string,
  ) {}

  async list(): Promise<Group[]> {
    return (await queryCollection(this.db, this.tableName, keys.groups())).map(toGroup);
  }

  async get(id: number): Promise<Group | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.group(id), ConsistentRead: true }));
    return Item ? toGroup(Item) : undefined;
  }
}

/** Members in the order they joined (ties by user id): the map itself keeps no order. */
function toGroup(item: Record<string, unknown>): Group {
  const { pk: _pk, sk: _sk, members, ...details } = item;
  const list: GroupMember[] = Object.entries((members ?? {}) as StoredMembers)
    .map(([userId, member]) => ({ userId: Number(userId), joinedAt: member.joinedAt, createdBy: member.createdBy }))
    .sort((a, b) => a.joinedAt.localeCompare(b.joinedAt) || a.userId - b.userId);
  return { ...(details as Omit<Group, 'members'>), members: list };
}
