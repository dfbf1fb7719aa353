import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGet } from '../store/batch-get.js';
import { conditionalWrite } from '../store/dynamo-errors.js';
import { keys, TTL_ATTRIBUTE } from '../store/table-design.js';
import { REWRITE_POLICY, type StoredScopePages, type StoredSnapshotHead, type StoredSnapshotStore } from './stored-snapshot.js';

/**
 * The stored SDK snapshot in the table (ADR 20). Pages are written first, each in a partition of
 * its own, and the head last: a reader that finds the head finds its pages (strongly consistent
 * reads), and a writer that fails half-way leaves only pages nothing names, which expire.
 */
export class DynamoStoredSnapshotStore implements StoredSnapshotStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
  ) {}

  async head(): Promise<StoredSnapshotHead | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.sdkSnapshotHead(), ConsistentRead: true }));
    if (!Item) return undefined;
    return {
      id: String(Item.id),
      format: Number(Item.format),
      revision: Number(Item.revision),
      shards: new Map(Object.entries((Item.shards ?? {}) as Record<string, number>).map(([shard, value]) => [shard, Number(value)])),
      pages: Number(Item.pages),
      bytes: Number(Item.bytes),
      writtenAt: String(Item.writtenAt),
      // A head written before ADR 25 has no scopes.
      scopes: new Map(Object.entries((Item.scopes ?? {}) as Record<string, StoredScopePages>).map(([environment, where]) => [
        environment, { first: Number(where.first), count: Number(where.count), bytes: Number(where.bytes) },
      ])),
      scopesFormat: Number(Item.scopesFormat ?? 0),
    };
  }

  pages(head: StoredSnapshotHead): Promise<Buffer[] | undefined> {
    return this.read(head.id, 0, head.pages);
  }

  async scopePages(head: StoredSnapshotHead, environment: string): Promise<Buffer[] | undefined> {
    const where = head.scopes.get(environment);
    return where ? this.read(head.id, where.first, where.count) : undefined;
  }

  private async read(id: string, first: number, count: number): Promise<Buffer[] | undefined> {
    const wanted = Array.from({ length: count }, (_, page) => keys.sdkSnapshotPage(id, first + page));
    const items = await batchGet(this.db, this.tableName, wanted);
    const byPk = new Map(items.map((item) => [item.pk as string, item.data as Uint8Array | undefined]));
    const pages: Buffer[] = [];
    for (const key of wanted) {
      const data = byPk.get(key.pk);
      if (!data) return undefined;
      pages.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    }
    return pages;
  }

  async save(head: StoredSnapshotHead, pages: readonly Buffer[]): Promise<boolean> {
    const expiresAt = Math.floor(this.now() / 1000) + REWRITE_POLICY.pageTtlSeconds;
    await Promise.all(pages.map((data, page) =>
      this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...keys.sdkSnapshotPage(head.id, page), data, [TTL_ATTRIBUTE]: expiresAt } }))));
    return conditionalWrite(() => this.db.send(new PutCommand({
      TableName: this.tableName,
      Item: {
        ...keys.sdkSnapshotHead(), id: head.id, format: head.format, revision: head.revision, shards: Object.fromEntries(head.shards),
        pages: head.pages, bytes: head.bytes, writtenAt: head.writtenAt, scopes: Object.fromEntries(head.scopes), scopesFormat: head.scopesFormat,
      },
      // Never back to an older revision; at the same revision only a later write (the daily refresh).
      ConditionExpression: 'attribute_not_exists(pk) OR revision < :revision OR (revision = :revision AND writtenAt < :writtenAt)',
      ExpressionAttributeValues: { ':revision': head.revision, ':writtenAt': head.writtenAt },
    })));
  }
}
