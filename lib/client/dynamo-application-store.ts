import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { APPLICATION_REGISTRATIONS } from '../limits.js';
import { queryCollection } from '../store/query.js';
import { conditionalWrite } from '../store/dynamo-errors.js';
import { MAX_TRANSACTION_ITEMS, transactWrite, type TransactWriteItem } from '../store/transact.js';
import { DEFAULT_SDK_ENVIRONMENT } from '../projects/defaults.js';
import { ALL } from '../tokens/model.js';
import type { ClientApplication, ClientApplicationScope, ClientApplicationStore, RegistrationBounds } from './store.js';
import { keys, TTL_ATTRIBUTE } from '../store/table-design.js';

const EVERY_PROJECT: ClientApplicationScope = { environment: DEFAULT_SDK_ENVIRONMENT, projects: [ALL] };

/** A registration lost a race with another of the same name and scope this many times in a row: the other one stands. */
const REGISTER_ATTEMPTS = 3;

const DAY_SECONDS = 24 * 60 * 60;

/**
 * Registered SDK applications, one item per appName and token scope; a new registration
 * replaces only the one of its own scope. Each item carries the table's TTL attribute, and
 * every read leaves out the lapsed ones by it, whenever DynamoDB's sweep removes them.
 *
 * A scope's live registrations are counted by the day they lapse (`keys.clientAppCount`): a
 * registration moves to a later day's count when renewed on a later day, in the transaction
 * that renews it, so the sum of the counts from today on is the number of live registrations
 * (with the ones that lapsed earlier today: a lapsed registration's place is free from the next
 * UTC day), read with one small Query instead of every registration. Counts of past days are
 * ignored and swept by their own TTL.
 */
export class DynamoClientApplicationStore implements ClientApplicationStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async register(application: ClientApplication & { expiresAt: number }, bounds: RegistrationBounds): Promise<boolean> {
    const scope = scopeDigest(application);
    const item = { ...keys.clientApp(application.appName, scope), ...application, [TTL_ATTRIBUTE]: application.expiresAt };
    // The most frequent case, an SDK starting again the same day: one conditional write.
    if (await this.renewSameDay(item)) return true;
    for (let attempt = 1; attempt <= REGISTER_ATTEMPTS; attempt += 1) {
      const outcome = await this.registerOnce(item, scope, bounds);
      if (outcome !== 'lost-race') return outcome === 'stored';
    }
    return true;
  }

  async get(appName: string, scope: ClientApplicationScope = EVERY_PROJECT, now = new Date()): Promise<ClientApplication | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.clientApp(appName, scopeDigest(scope)), ConsistentRead: true }),
    );
    return Item && isLive(Item, now) ? toApplication(Item) : undefined;
  }

  /** Every live registration: one partition, at most APPLICATION_REGISTRATIONS.perScope a token scope. */
  async list(now: Date): Promise<ClientApplication[]> {
    return (await queryCollection(this.db, this.tableName, keys.clientApps())).filter((item) => isLive(item, now)).map(toApplication);
  }

  /**
   * One application's live registrations, one per token scope. The scope digest after the name
   * has a fixed length, so the prefix finds only names that start with this one, and the exact
   * name is kept.
   */
  async ofApplication(appName: string, now: Date): Promise<ClientApplication[]> {
    return (await this.itemsOf(appName)).filter((item) => isLive(item, now)).map(toApplication);
  }

  /**
   * Removes every registration of the application, in every scope, each with its place in its
   * scope's count, all in one transaction (a transaction's 100 items hold 50 scopes; an
   * application registered in more is removed 50 scopes a transaction). A registration renewed
   * meanwhile fails its condition and is read again.
   */
  async remove(appName: string, now: Date): Promise<void> {
    for (let attempt = 1; attempt <= REGISTER_ATTEMPTS; attempt += 1) {
      const removals = (await this.itemsOf(appName)).map((item) => removal(item, now, this.tableName));
      if (removals.length === 0) return;
      let removedAll = true;
      for (const writes of inTransactions(removals)) removedAll = (await transactWrite(this.db, writes)) && removedAll;
      if (removedAll) return;
    }
  }

  private async itemsOf(appName: string): Promise<Record<string, unknown>[]> {
    const { pk, skPrefix } = keys.clientApps();
    const items = await queryCollection(this.db, this.tableName, { pk, skPrefix: `${skPrefix}${appName}#` });
    return items.filter((item) => item.appName === appName);
  }

  /** Replaces a registration that lapses on the same day as the new one: its count stays as it is. */
  private renewSameDay(item: Record<string, unknown> & { expiresAt: number }): Promise<boolean> {
    const { start, end } = dayBounds(item.expiresAt);
    return conditionalWrite(() => this.db.send(new PutCommand({
      TableName: this.tableName,
      Item: item,
      ConditionExpression: '#ttl BETWEEN :start AND :end',
      ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':start': start, ':end': end },
    })));
  }

  /**
   * A registration whose stored one lapses on another day, has lapsed, or is not there: the
   * stored one (read first) decides whether the scope gains one, which only fits below the cap.
   */
  private async registerOnce(
    item: Record<string, unknown> & { expiresAt: number }, scope: string, bounds: RegistrationBounds,
  ): Promise<'stored' | 'refused' | 'lost-race'> {
    const { Item: stored } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: item.pk, sk: item.sk }, ConsistentRead: true }));
    const storedExpiry = typeof stored?.[TTL_ATTRIBUTE] === 'number' ? (stored[TTL_ATTRIBUTE] as number) : undefined;
    const today = dayOf(bounds.now.getTime() / 1000);
    const newDay = dayOf(item.expiresAt);
    const writes: TransactWriteItem[] = [{ Put: { TableName: this.tableName, Item: item, ...unchangedSince(stored, storedExpiry) } }];
    const live = storedExpiry !== undefined && storedExpiry > bounds.now.getTime() / 1000;
    // Renewed while live: its place in the scope moves to the new day's count, the sum stays.
    if (live) {
      if (dayOf(storedExpiry) !== newDay) writes.push(countChange(this.tableName, scope, dayOf(storedExpiry), -1, storedExpiry), countChange(this.tableName, scope, newDay, 1, item.expiresAt));
      return (await transactWrite(this.db, writes)) ? 'stored' : 'lost-race';
    }
    // New to the scope (absent, lapsed, or stored before registrations were counted): it fits only below the cap.
    const counts = await this.liveCounts(scope, today);
    const others = [...counts].reduce((sum, [day, n]) => (day === newDay ? sum : sum + Math.max(0, n)), 0);
    const room = bounds.perScope - others;
    if (room <= 0 || (counts.get(newDay) ?? 0) >= room) return 'refused';
    // One that lapsed earlier today still counts today: its place goes with it.
    if (storedExpiry !== undefined && dayOf(storedExpiry) >= today) writes.push(countChange(this.tableName, scope, dayOf(storedExpiry), -1, storedExpiry));
    // Concurrent newcomers add to the same day's count: its condition keeps the sum within the cap.
    writes.push(countChange(this.tableName, scope, newDay, 1, item.expiresAt, room));
    return (await transactWrite(this.db, writes)) ? 'stored' : 'lost-race';
  }

  /** The scope's counts by the day they lapse, from today on. */
  private async liveCounts(scope: string, today: string): Promise<Map<string, number>> {
    const { pk, skPrefix } = keys.clientAppCounts(scope);
    const { Items = [] } = await this.db.send(new QueryCommand({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': `${skPrefix}${today}`, ':to': `${skPrefix}~` },
      ConsistentRead: true,
    }));
    return new Map(Items.map((count) => [String(count.sk).slice(skPrefix.length), Number(count.n ?? 0)]));
  }
}

/** The condition that the stored registration is still the one read (or still absent). */
function unchangedSince(stored: Record<string, unknown> | undefined, storedExpiry: number | undefined) {
  if (!stored) return { ConditionExpression: 'attribute_not_exists(pk)' };
  if (storedExpiry === undefined) return { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#ttl)', ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE } };
  return { ConditionExpression: '#ttl = :read', ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE }, ExpressionAttributeValues: { ':read': storedExpiry } };
}

/**
 * Adds `delta` to the count of the scope's registrations lapsing on `day`; with `below`, only
 * while the count stays below it. The count lapses a day after its registrations do.
 */
function countChange(tableName: string, scope: string, day: string, delta: number, expiresAt: number, below?: number): TransactWriteItem {
  return {
    Update: {
      TableName: tableName,
      Key: keys.clientAppCount(scope, day),
      UpdateExpression: 'ADD n :delta SET #ttl = :expires',
      ...(below === undefined ? {} : { ConditionExpression: 'attribute_not_exists(n) OR n < :below' }),
      ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':delta': delta, ':expires': dayBounds(expiresAt).end + DAY_SECONDS, ...(below === undefined ? {} : { ':below': below }) },
    },
  };
}

/** A registration's delete, conditional on it being the one read, and its place in its count while it counts. */
function removal(item: Record<string, unknown>, now: Date, tableName: string): TransactWriteItem[] {
  const expiry = typeof item[TTL_ATTRIBUTE] === 'number' ? (item[TTL_ATTRIBUTE] as number) : undefined;
  const remove: TransactWriteItem = { Delete: { TableName: tableName, Key: { pk: item.pk, sk: item.sk }, ...unchangedSince(item, expiry) } };
  if (expiry === undefined || dayOf(expiry) < dayOf(now.getTime() / 1000)) return [remove];
  return [remove, countChange(tableName, scopeDigest(item as unknown as ClientApplicationScope), dayOf(expiry), -1, expiry)];
}

/** Groups of writes in as few transactions as hold them, never splitting a group. */
function inTransactions(groups: TransactWriteItem[][]): TransactWriteItem[][] {
  const transactions: TransactWriteItem[][] = [];
  for (const group of groups) {
    const last = transactions.at(-1);
    if (last && last.length + group.length <= MAX_TRANSACTION_ITEMS) last.push(...group);
    else transactions.push([...group]);
  }
  return transactions;
}

/** Live until its TTL passes; one stored before registrations lapsed, until `expiryDays` after it was last seen. */
function isLive(item: Record<string, unknown>, now: Date): boolean {
  const expiry = typeof item[TTL_ATTRIBUTE] === 'number'
    ? (item[TTL_ATTRIBUTE] as number) * 1000
    : Date.parse(String(item.lastSeen)) + APPLICATION_REGISTRATIONS.expiryDays * DAY_SECONDS * 1000;
  return expiry > now.getTime();
}

function toApplication(item: Record<string, unknown>): ClientApplication {
  const { pk: _pk, sk: _sk, ...application } = item;
  return application as unknown as ClientApplication;
}

/** The UTC day (`yyyy-mm-dd`) of an epoch second. */
function dayOf(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10);
}

/** The first and last epoch second of the UTC day of `epochSeconds`. */
function dayBounds(epochSeconds: number): { start: number; end: number } {
  const start = Math.floor(epochSeconds / DAY_SECONDS) * DAY_SECONDS;
  return { start, end: start + DAY_SECONDS - 1 };
}

/**
 * The whole SHA-256 of the scope, never a cut: a token's project list has no useful bound on
 * its length, and a digest keeps the key within DynamoDB's 1,024 bytes whatever it holds.
 */
function scopeDigest({ environment, projects }: ClientApplicationScope): string {
  return createHash('sha256').update(JSON.stringify([environment, [...projects].sort()])).digest('hex');
}
