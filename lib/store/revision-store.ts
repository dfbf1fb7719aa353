import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RevisionState } from '../client/revision-clock.js';
import type { TransactWriteItem } from './transact.js';
import { keys } from './table-design.js';

/**
 * The revision item: a counter that every write visible to SDKs bumps in the same
 * transaction. The SDK path keys its cache and ETag on it, so reading it is the whole cost
 * of a warm poll. A second counter on the same item, `tokenChanges`, moves with every token
 * created or deleted: the read that every instance makes anyway carries revocations to it.
 */
export class DynamoRevisionStore {
  private readonly bumpListeners = new Set<() => void>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    watchCommittedBumps(db, tableName, () => {
      for (const listener of this.bumpListeners) listener();
    });
  }

  /** Strongly consistent, so a poll after an acknowledged write sees that write. */
  async current(): Promise<number> {
    return (await this.read()).revision;
  }

  /** Both counters in one strongly consistent read. */
  async read(): Promise<RevisionState> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.revision(), ConsistentRead: true }),
    );
    const counter = (value: unknown): number => (typeof value === 'number' ? value : 0);
    return { revision: counter(Item?.revision), tokenChanges: counter(Item?.tokenChanges) };
  }

  /** The transaction item that moves the revision on by one. */
  bump(): TransactWriteItem {
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.revision(),
        UpdateExpression: 'ADD revision :one',
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
  }

  /**
   * The transaction item that records a token created or deleted. It leaves the revision (and
   * so every SDK's ETag) alone: the payload did not change, only who may fetch it.
   */
  tokenChange(): TransactWriteItem {
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.revision(),
        UpdateExpression: 'ADD tokenChanges :one',
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
  }

  /**
   * Calls `listener` after each transaction of this process that moved the revision has
   * succeeded, so a cached revision can be dropped the moment this process writes (the
   * SDK path serves a same-process write at once, whatever its revision-check interval).
   */
  onCommittedBump(listener: () => void): void {
    this.bumpListeners.add(listener);
  }
}

/**
 * A middleware on the client rather than a call in each store: every store's transaction
 * goes through the one client, so no write path, present or future, can forget to report.
 * It runs before marshalling, where keys are still plain values.
 */
function watchCommittedBumps(db: DynamoDBDocumentClient, tableName: string, onBump: () => void): void {
  const revisionKey = keys.revision();
  const movesRevision = (input: unknown): boolean => {
    const items = (input as { TransactItems?: TransactWriteItem[] }).TransactItems ?? [];
    return items.some(({ Update }) => Update?.TableName === tableName && Update.Key?.pk === revisionKey.pk && Update.Key.sk === revisionKey.sk);
  };
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'TransactWriteItemsCommand' && movesRevision(args.input)) onBump();
      return result;
    },
    { step: 'initialize', priority: 'low' },
  );
}
