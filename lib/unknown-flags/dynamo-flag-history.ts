import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGet } from '../store/batch-get.js';
import { INDEXES, keys } from '../store/table-design.js';
import type { FlagHistory } from './ports.js';

/** How many names' newest event are asked for at once. */
const PARALLEL_EVENT_READS = 10;

/**
 * Which names are flags, from the features' partition (keys only, strongly consistent: a flag
 * created a moment ago is no longer unknown), and each name's newest change event from the
 * `eventsByFeature` index (events written before the index existed are not found).
 */
export class DynamoFlagHistory implements FlagHistory {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async existing(names: readonly string[]): Promise<Set<string>> {
    const items = await batchGet(this.db, this.tableName, [...new Set(names)].map((name) => keys.feature(name)), 'sk');
    return new Set(items.map((item) => String(item.sk).slice(keys.feature('').sk.length)));
  }

  async lastEventAt(names: readonly string[]): Promise<Map<string, string>> {
    const { name: indexName, partitionKey } = INDEXES.eventsByFeature;
    const newest = new Map<string, string>();
    const distinct = [...new Set(names)];
    for (let start = 0; start < distinct.length; start += PARALLEL_EVENT_READS) {
      await Promise.all(distinct.slice(start, start + PARALLEL_EVENT_READS).map(async (name) => {
        const { Items = [] } = await this.db.send(new QueryCommand({
          TableName: this.tableName,
          IndexName: indexName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': partitionKey },
          ExpressionAttributeValues: { ':pk': keys.featureEvents(name) },
          ProjectionExpression: 'createdAt',
          ScanIndexForward: false,
          Limit: 1,
        }));
        const createdAt = Items[0]?.createdAt;
        if (typeof createdAt === 'string') newest.set(name, createdAt);
      }));
    }
    return newest;
  }
}
