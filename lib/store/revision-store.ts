import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RevisionState } from '../revision.js';
import { transactWriteDetailed, type TransactionOutcome, type TransactOptions, type TransactWriteItem } from './transact.js';
import { keys } from './table-design.js';

/**
 * How many items the revision is spread over (ADR 13). DynamoDB cancels transactions that touch
 * an item another transaction holds, so one counter in every admin write made every two
 * concurrent admin writes conflict; with 32 shards two of them meet on the counter one time in
 * 32. A strongly consistent Query of all 32 (about 40 bytes each) still costs one read unit.
 */
export const REVISION_SHARDS = 32;

/**
 * The revision: a counter that every write visible to SDKs moves in the same transaction, spread
 * over REVISION_SHARDS items of one partition; its value is the sum of the shards, so it only
 * grows. The SDK path keys its cache and ETag on it, so reading it is the whole cost of a warm
 * poll. A second counter on the same items, `tokenChanges`, moves with every token created or
 * deleted: the read that every instance makes anyway carries revocations to it.
 *
 * The counters move only through `commit` and `commitTokenChange`, which also tell this
 * process's listeners once the transaction succeeded: a store cannot move the revision
 * without the notification, and the notification is an ordinary call, not a hook on the client.
 */
export class DynamoRevisionStore {
  private readonly bumpListeners = new Set<() => void>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** Which shard a commit moves; random, so concurrent writes rarely pick the same one (tests fix it). */
    private readonly pickShard: () => number = () => Math.floor(Math.random() * REVISION_SHARDS),
  ) {}

  /** Strongly consistent, so a poll after an acknowledged write sees that write. */
  async current(): Promise<number> {
    return (await this.read()).revision;
  }

  /**
   * Both counters, summed over every shard, in one strongly consistent Query: a read after an
   * acknowledged write sees it, and a later read never sees less (every shard only grows).
   */
  async read(): Promise<RevisionState> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.revisionPartition() },
        ConsistentRead: true,
      }),
    );
    const counter = (value: unknown): number => (typeof value === 'number' ? value : 0);
    return Items.reduce<RevisionState>(
      (sum, item) => ({ revision: sum.revision + counter(item.revision), tokenChanges: sum.tokenChanges + counter(item.tokenChanges) }),
      { revision: 0, tokenChanges: 0 },
    );
  }

  /**
   * Applies a change SDKs can see: `items` and the revision bump in one transaction (the bump
   * last, so a failed index still points into `items`), then the listeners.
   */
  async commit(items: TransactWriteItem[], options: TransactOptions = {}): Promise<TransactionOutcome> {
    return this.committed(await transactWriteDetailed(this.db, [...items, this.counterMove('revision')], options));
  }

  /**
   * Applies a token created or deleted with the token-change counter moved. It leaves the
   * revision (and so every SDK's ETag) alone: the payload did not change, only who may fetch it.
   * Listeners are told too, so this process reads the counter again at once.
   */
  async commitTokenChange(items: TransactWriteItem[]): Promise<TransactionOutcome> {
    return this.committed(await transactWriteDetailed(this.db, [...items, this.counterMove('tokenChanges')]));
  }

  /**
   * Calls `listener` after each transaction of this process that moved the revision item has
   * succeeded, so a cached revision can be dropped the moment this process writes (the
   * SDK path serves a same-process write at once, whatever its revision-check interval).
   */
  onCommittedBump(listener: () => void): void {
    this.bumpListeners.add(listener);
  }

  private committed(outcome: TransactionOutcome): TransactionOutcome {
    if (outcome.ok) for (const listener of this.bumpListeners) listener();
    return outcome;
  }

  private counterMove(counter: 'revision' | 'tokenChanges'): TransactWriteItem {
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.revisionShard(this.pickShard()),
        UpdateExpression: `ADD ${counter} :one`,
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
  }
}
