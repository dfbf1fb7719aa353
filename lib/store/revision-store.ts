import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChangeLogEntry, RevisionState, SdkChange } from '../revision.js';
import { unresolvedConflict } from './error-translation.js';
import { transactWriteDetailed, type TransactionOutcome, type TransactOptions, type TransactWriteItem } from './transact.js';
import { keys, TTL_ATTRIBUTE, type ItemKey } from './table-design.js';

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
 *
 * The change log (ADR 16): `commit` takes what the change touched and writes it, in the same
 * transaction, at the shard's next revision (`REVISION_CHANGES#<shard>`, sk the revision). A
 * shard's revision therefore counts its entries one by one, and a reader that kept each shard's
 * revision from an earlier reading finds exactly what changed since: no clock is involved.
 */
export class DynamoRevisionStore {
  private readonly bumpListeners = new Set<() => void>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** Which shard a commit moves; random, so concurrent writes rarely pick the same one (tests fix it). */
    private readonly pickShard: () => number = () => Math.floor(Math.random() * REVISION_SHARDS),
    private readonly now: () => number = Date.now,
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
    const shards = new Map<string, number>();
    let revision = 0;
    let tokenChanges = 0;
    for (const item of Items) {
      shards.set(item.sk as string, counter(item.revision));
      revision += counter(item.revision);
      tokenChanges += counter(item.tokenChanges);
    }
    return { revision, tokenChanges, shards };
  }

  /**
   * What changed between two readings, from the change log: one strongly consistent Query per
   * shard that moved. Undefined when the log cannot tell (a shard moved before the log existed,
   * or its entries expired): the reader then reads everything.
   */
  async changesSince(from: RevisionState['shards'], to: RevisionState['shards']): Promise<ChangeLogEntry[] | undefined> {
    const moved = [...to].filter(([shard, revision]) => revision > (from.get(shard) ?? 0));
    const perShard = await Promise.all(
      moved.map(async ([shard, revision]) => {
        const after = from.get(shard) ?? 0;
        const { Items = [] } = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
            ExpressionAttributeValues: {
              ':pk': keys.revisionChanges(shard),
              ':first': keys.revisionChange(shard, after + 1).sk,
              ':last': keys.revisionChange(shard, revision).sk,
            },
            ConsistentRead: true,
          }),
        );
        if (Items.length !== revision - after) return undefined;
        return Items.map((item): ChangeLogEntry => ({ shard, revision: Number(item.sk), change: changeOf(item) }));
      }),
    );
    if (perShard.some((entries) => entries === undefined)) return undefined;
    return perShard.flat() as ChangeLogEntry[];
  }

  /**
   * Applies a change SDKs can see: `items`, the shard's next revision and its change-log entry in
   * one transaction (the revision last, so a failed index still points into `items`), then the
   * listeners. The shard is read first and moved on that value: two commits that picked the same
   * shard cannot both take its next revision, and the one that lost tries another.
   */
  async commit(items: TransactWriteItem[], change: SdkChange, options: TransactOptions = {}): Promise<TransactionOutcome> {
    for (let attempt = 1; ; attempt += 1) {
      const key = keys.revisionShard(this.pickShard());
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
      const seen = counter(Item?.revision);
      const outcome = await transactWriteDetailed(this.db, [...items, ...this.logged(key, seen, change)], options);
      if (outcome.ok || outcome.failedIndex < items.length) return this.committed(outcome);
      if (attempt >= SHARD_ATTEMPTS) throw unresolvedConflict(new Error(`revision shard ${key.sk} kept moving`));
      // A short random pause: writers that just collided spread out instead of colliding again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * SHARD_BACKOFF_MS * attempt));
    }
  }

  /**
   * Applies a token created or deleted with the token-change counter moved. It leaves the
   * revision (and so every SDK's ETag) alone: the payload did not change, only who may fetch it.
   * Listeners are told too, so this process reads the counter again at once.
   */
  async commitTokenChange(items: TransactWriteItem[]): Promise<TransactionOutcome> {
    const tokenMove: TransactWriteItem = {
      Update: {
        TableName: this.tableName,
        Key: keys.revisionShard(this.pickShard()),
        UpdateExpression: 'ADD tokenChanges :one',
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
    return this.committed(await transactWriteDetailed(this.db, [...items, tokenMove]));
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

  /** The shard moved from `seen` to the next revision, and the change logged at that revision. */
  private logged(key: ItemKey, seen: number, change: SdkChange): TransactWriteItem[] {
    const next = seen + 1;
    return [
      {
        Update: {
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET revision = :next',
          ConditionExpression: seen === 0 ? 'attribute_not_exists(revision) OR revision = :seen' : 'revision = :seen',
          ExpressionAttributeValues: { ':next': next, ':seen': seen },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: {
            ...keys.revisionChange(key.sk, next),
            ...('everything' in change ? { everything: true } : { features: [...change.features], segments: change.segments === true }),
            [TTL_ATTRIBUTE]: Math.floor(this.now() / 1000) + CHANGE_LOG_RETENTION_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
  }
}

/**
 * How long change-log entries are kept: a container whose payload is older reads everything
 * again, as a cold one does. A day covers every warm container (Lambda recycles them sooner).
 */
const CHANGE_LOG_RETENTION_SECONDS = 24 * 60 * 60;

/**
 * How often a commit tries another shard after the one it read moved under it. 200 creates at
 * once in one project lost 8 shards in a row now and then on an idle two-core machine (2 of 200
 * answered 503); each try is one read and one transaction, and none starts past the request's
 * write deadline (lib/store/late-writes.ts).
 */
const SHARD_ATTEMPTS = 12;
/** The pause before the next shard grows by up to this many milliseconds a try. */
const SHARD_BACKOFF_MS = 5;

const counter = (value: unknown): number => (typeof value === 'number' ? value : 0);

function changeOf(item: Record<string, unknown>): SdkChange {
  if (item.everything === true) return { everything: true };
  return { features: (item.features as string[] | undefined) ?? [], segments: item.segments === true };
}
