import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite } from '../store/dynamo-errors.js';
import { queryCollection } from '../store/query.js';
import { keys, TTL_ATTRIBUTE } from '../store/table-design.js';
import type { StoredReport, StoredUnknownFlag } from './model.js';
import type { UnknownFlagStore } from './store.js';

/**
 * Unknown names in one partition, one item per name (`keys.unknownFlag`): its reports are a map
 * from `[appName, environment]` (as JSON) to when that pair last reported it, and the item
 * carries the table's TTL attribute, moved forward by every write. Every write is an UpdateItem
 * that sets times, so a batch written twice stores what it stored once.
 */
export class DynamoUnknownFlagStore implements UnknownFlagStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(): Promise<StoredUnknownFlag[]> {
    const items = await queryCollection(this.db, this.tableName, keys.unknownFlags());
    return items.map((item) => ({ name: String(item.name), reports: reportsOf(item.reports) }));
  }

  async expiries(): Promise<Map<string, number>> {
    const { pk, skPrefix } = keys.unknownFlags();
    const expiries = new Map<string, number>();
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
        ProjectionExpression: '#name, #ttl',
        ExpressionAttributeNames: { '#name': 'name', '#ttl': TTL_ATTRIBUTE },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }));
      for (const item of page.Items ?? []) expiries.set(String(item.name), Number(item[TTL_ATTRIBUTE] ?? 0));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return expiries;
  }

  create(name: string, reports: StoredReport[], expiresAt: number, nowSeconds: number): Promise<boolean> {
    return conditionalWrite(() => this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: keys.unknownFlag(name),
      // A lapsed item DynamoDB has not swept yet is replaced whole, its old reports with it.
      UpdateExpression: 'SET #name = :name, reports = :reports, #ttl = :expires',
      ConditionExpression: 'attribute_not_exists(pk) OR #ttl <= :now',
      ExpressionAttributeNames: { '#name': 'name', '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':name': name, ':reports': reportMap(reports), ':expires': expiresAt, ':now': nowSeconds },
    })));
  }

  addReports(name: string, reports: StoredReport[], expiresAt: number, maxReports: number): Promise<boolean> {
    const { names, values, paths } = reportPaths(reports);
    const held = paths.map((path) => `attribute_exists(${path})`).join(' AND ');
    return conditionalWrite(() => this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: keys.unknownFlag(name),
      UpdateExpression: `SET ${paths.map((path, index) => `${path} = :r${index}`).join(', ')}, #ttl = :expires`,
      // A full name still takes newer times of the pairs it holds.
      ConditionExpression: `attribute_exists(pk) AND (size(reports) < :max OR (${held}))`,
      ExpressionAttributeNames: { ...names, '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ...values, ':expires': expiresAt, ':max': maxReports },
    })));
  }

  async reportsOf(name: string): Promise<StoredReport[] | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.unknownFlag(name), ConsistentRead: true }));
    return Item ? reportsOf(Item.reports) : undefined;
  }

  rewriteReports(name: string, change: { remove: StoredReport[]; set: StoredReport[]; expiresAt: number; sizeRead: number }): Promise<boolean> {
    const set = reportPaths(change.set, 's');
    const remove = reportPaths(change.remove, 'x');
    return conditionalWrite(() => this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: keys.unknownFlag(name),
      UpdateExpression: [
        `SET ${[...set.paths.map((path, index) => `${path} = :s${index}`), '#ttl = :expires'].join(', ')}`,
        ...(remove.paths.length > 0 ? [`REMOVE ${remove.paths.join(', ')}`] : []),
      ].join(' '),
      ConditionExpression: 'attribute_exists(pk) AND size(reports) = :sizeRead',
      ExpressionAttributeNames: { ...set.names, ...remove.names, '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ...set.values, ':expires': change.expiresAt, ':sizeRead': change.sizeRead },
    })));
  }
}

/** Each report's map path (`reports.#<tag><i>`), its name and its time as expression values. */
function reportPaths(reports: StoredReport[], tag = 'r') {
  const names: Record<string, string> = {};
  const values: Record<string, string> = {};
  const paths = reports.map((report, index) => {
    names[`#${tag}${index}`] = reportKey(report);
    values[`:${tag}${index}`] = report.seenAt;
    return `reports.#${tag}${index}`;
  });
  return { names, values, paths };
}

const reportKey = ({ appName, environment }: { appName: string; environment: string }) => JSON.stringify([appName, environment]);

function reportMap(reports: StoredReport[]): Record<string, string> {
  return Object.fromEntries(reports.map((report) => [reportKey(report), report.seenAt]));
}

/** The stored map back as reports; a key that is not the pair it was written as is left out. */
function reportsOf(raw: unknown): StoredReport[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const reports: StoredReport[] = [];
  for (const [key, seenAt] of Object.entries(raw as Record<string, unknown>)) {
    try {
      const pair: unknown = JSON.parse(key);
      if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string' && typeof seenAt === 'string') {
        reports.push({ appName: pair[0], environment: pair[1], seenAt });
      }
    } catch {
      // Not a pair this store wrote: nothing to show.
    }
  }
  return reports;
}
