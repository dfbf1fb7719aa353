import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SdkChange } from '../revision.js';
import type { Segment } from './model.js';
import type { EditableSegmentStore, SegmentDeleteOutcome, SegmentWriteOutcome } from './store.js';
import { queryCollection } from '../store/query.js';
import type { DynamoRevisionStore } from '../store/revision-store.js';
import { keys } from '../store/table-design.js';
import type { TransactWriteItem } from '../store/transact.js';
import { setAttributes } from '../store/update-expression.js';

/**
 * Segments are numbered by an atomic counter. A segment's name is held by a guard item written
 * in the same transaction, which is what makes two concurrent creates of one name end with one
 * segment. `refCount` is the feature store's; writes here never replace the whole item.
 */
/** Segments reach SDKs through the payload's segment list and inlined constraints. */
const SEGMENTS_CHANGED: SdkChange = { features: [], segments: true };

export class DynamoSegmentStore implements EditableSegmentStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly revisions: DynamoRevisionStore,
  ) {}

  async list(): Promise<Segment[]> {
    return (await queryCollection(this.db, this.tableName, keys.segments())).map(toSegment);
  }

  async nameTaken(name: string): Promise<boolean> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.segmentName(name), ConsistentRead: true }));
    return Item !== undefined;
  }

  async get(id: number): Promise<Segment | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.segment(id), ConsistentRead: true }));
    return Item ? toSegment(Item) : undefined;
  }

  async nextId(): Promise<number> {
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.counter('segment'),
        UpdateExpression: 'ADD #value :one',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(Attributes?.value);
  }

  async insert(segment: Segment): Promise<'done' | 'name-taken'> {
    const outcome = await this.revisions.commit([
      this.claimName(segment),
      { Put: { TableName: this.tableName, Item: segmentItem(segment), ConditionExpression: 'attribute_not_exists(pk)' } },
    ], SEGMENTS_CHANGED);
    return outcome.ok ? 'done' : 'name-taken';
  }

  async replace(before: Segment, after: Segment): Promise<SegmentWriteOutcome> {
    const { id: _id, createdAt: _createdAt, createdBy: _createdBy, ...changed } = after;
    const update = setAttributes(changed);
    const renamed = before.name !== after.name;
    const items: TransactWriteItem[] = [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.segment(before.id),
          ...update,
          ConditionExpression: 'attribute_exists(pk) AND #name = :before',
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':before': before.name },
        },
      },
      ...(renamed ? [this.claimName(after), { Delete: { TableName: this.tableName, Key: keys.segmentName(before.name) } }] : []),
    ];
    const outcome = await this.revisions.commit(items, SEGMENTS_CHANGED);
    if (outcome.ok) return 'done';
    if (outcome.failedIndex === 1) return 'name-taken';
    return (await this.get(before.id)) ? 'changed' : 'missing';
  }

  async delete(segment: Segment): Promise<SegmentDeleteOutcome> {
    const outcome = await this.revisions.commit([
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.segment(segment.id),
          ConditionExpression: 'attribute_exists(pk) AND #name = :name AND (attribute_not_exists(refCount) OR refCount <= :zero)',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: { ':name': segment.name, ':zero': 0 },
        },
      },
      { Delete: { TableName: this.tableName, Key: keys.segmentName(segment.name) } },
    ], SEGMENTS_CHANGED);
    if (outcome.ok) return 'done';
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.segment(segment.id), ConsistentRead: true }));
    if (!Item) return 'missing';
    return typeof Item.refCount === 'number' && Item.refCount > 0 ? 'in-use' : 'changed';
  }

  private claimName(segment: Segment): TransactWriteItem {
    return {
      Put: {
        TableName: this.tableName,
        Item: { ...keys.segmentName(segment.name), segmentId: segment.id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }
}

function segmentItem(segment: Segment): Record<string, unknown> {
  return { ...keys.segment(segment.id), ...segment };
}

function toSegment(item: Record<string, unknown>): Segment {
  const { pk: _pk, sk: _sk, refCount: _refCount, ...segment } = item;
  return segment as unknown as Segment;
}
