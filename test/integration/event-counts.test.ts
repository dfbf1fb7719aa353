import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DynamoEventStore, eventItem, trustEventCountsOf } from '../../lib/events/dynamo-store.js';
import type { ChangeEvent } from '../../lib/events/model.js';
import { SETTLE_MS, SettledMonths } from '../../lib/events/settled-months.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { EVENT_COUNT_SHARDS, keys } from '../../lib/store/table-design.js';
import { transactWriteDetailed } from '../../lib/store/transact.js';
import { unique } from '../support/services.js';

/**
 * The written-events counters (ADR 26): every transaction that writes events adds their number
 * to a counter of their month in the same transaction, and a container that holds as many
 * counted events of a month as the counters sum to answers from memory. On a table of its own in
 * the AWS-like engine, with events in 2001 and a clock the test moves.
 */
describe('the event counters', () => {
  const tableName = unique('event-counts');
  const endpoint = inject('dynamodb').endpoint;
  const db = createDocumentClient({ region: 'local', endpoint });
  /** The reader's client, whose requests are written down: `<command> <partition>`. */
  const readerDb = createDocumentClient({ region: 'local', endpoint });
  const requests: string[] = [];
  readerDb.middlewareStack.add((next, context) => async (args) => {
    const input = args.input as { ExpressionAttributeValues?: Record<string, unknown>; ConsistentRead?: boolean };
    const partition = String(input.ExpressionAttributeValues?.[':pk'] ?? '');
    requests.push(`${context.commandName}${input.ConsistentRead ? ' consistent' : ''} ${partition}`);
    return next(args);
  }, { step: 'initialize', name: 'recordRequests' });
  let sequence = 0;
  const event = (createdAt: string, project: string): ChangeEvent => ({
    id: `${String((sequence += 1)).padStart(4, '0')}-${unique('event')}`, type: 'project-created', createdAt, createdBy: 'test', project,
  });
  /** Written as the stores write them: through the service's transaction function. */
  const write = async (...events: ChangeEvent[]) => {
    expect((await transactWriteDetailed(db, events.map((e) => eventItem(tableName, e)))).ok).toBe(true);
  };
  /** Written as a table from before the counters holds them: a bare transaction, nothing counted. */
  const writeUncounted = (...events: ChangeEvent[]) => db.send(new TransactWriteCommand({ TransactItems: events.map((e) => eventItem(tableName, e)) }));
  const projects = (events: ChangeEvent[]) => events.map((e) => e.project).sort();
  const store = new DynamoEventStore(readerDb, tableName);
  /** Reads `window` and answers the projects found and the requests it took. */
  const readWith = async (months: SettledMonths, window: readonly [Date, Date]) => {
    requests.length = 0;
    const found = projects(await months.between(...window));
    return { found, requests: [...requests] };
  };

  beforeAll(() => prepareLocalTable({ region: 'local', endpoint }, tableName));
  afterAll(() => {
    db.destroy();
    readerDb.destroy();
  });

  it('moves one shard of each month in the transaction that writes its events, and nothing when the transaction fails', async () => {
    await write(event('2002-01-10T10:00:00.000Z', 'one'), event('2002-01-11T10:00:00.000Z', 'two'), event('2002-02-01T00:00:00.000Z', 'three'));
    await write(event('2002-01-12T10:00:00.000Z', 'four'));
    const refused = await transactWriteDetailed(db, [
      eventItem(tableName, event('2002-01-13T10:00:00.000Z', 'refused')),
      { ConditionCheck: { TableName: tableName, Key: { pk: unique('missing'), sk: 'x' }, ConditionExpression: 'attribute_exists(pk)' } },
    ]);

    expect(refused).toEqual({ ok: false, failedIndex: 1 });
    expect(await store.writtenCount('2002-01')).toEqual({ written: 3, countingSince: Date.parse('2002-01-11T10:00:00.000Z') });
    expect(await store.writtenCount('2002-02')).toEqual({ written: 1, countingSince: Date.parse('2002-02-01T00:00:00.000Z') });
    expect(await store.writtenCount('2002-03')).toEqual({ written: 0, countingSince: undefined });
    // One Query reads every shard of the month, and the shards are all of its partition.
    const shards = await db.send(new QueryCommand({
      TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.eventCountShards('2002-01').pk },
    }));
    expect(shards.Items?.length).toBeGreaterThanOrEqual(1);
    expect(shards.Items?.every((item) => /^SHARD#\d+$/.test(String(item.sk)) && Number(String(item.sk).slice(6)) < EVENT_COUNT_SHARDS)).toBe(true);
    // The events themselves read as before: the mark of being counted stays in the table.
    const january = await store.between(new Date('2002-01-01T00:00:00.000Z'), new Date('2002-02-01T00:00:00.000Z'));
    expect(projects(january)).toEqual(['four', 'one', 'two']);
    expect(january.every((e) => !('counted' in e))).toBe(true);
  });

  it('counts every event of many transactions at once, whichever shards they met on', async () => {
    const writes = Array.from({ length: 40 }, (_, index) => [
      event(`2008-05-10T10:00:${String(index).padStart(2, '0')}.000Z`, `a${index}`),
      event(`2008-05-10T10:01:${String(index).padStart(2, '0')}.000Z`, `b${index}`),
    ]);

    await Promise.all(writes.map((pair) => write(...pair)));

    const every = await store.betweenCounted(new Date('2008-05-01T00:00:00.000Z'), new Date('2008-06-01T00:00:00.000Z'));
    expect(every.events).toHaveLength(80);
    expect(every.counted.every(Boolean)).toBe(true);
    expect((await store.writtenCount('2008-05')).written).toBe(80);
  });

  it('answers an unchanged month from memory after one Query of its counters, and sees a write at the next read', async () => {
    let clock = new Date('2003-03-20T12:00:00.000Z');
    const months = new SettledMonths(store, () => clock);
    const window = [new Date('2003-03-01T00:00:00.000Z'), new Date('2003-03-21T00:00:00.000Z')] as const;
    await write(event('2003-03-10T08:00:00.000Z', 'settled'));
    await write(event('2003-03-20T11:58:00.000Z', 'fresh'), event('2003-03-20T11:59:00.000Z', 'fresher'));

    const first = await readWith(months, window);
    const second = await readWith(months, window);
    await write(event('2003-03-20T11:59:30.000Z', 'written after'));
    const third = await readWith(months, window);
    const fourth = await readWith(months, window);
    clock = new Date(clock.getTime() + 10 * 60_000);
    const fifth = await readWith(months, window);

    const every = ['fresh', 'fresher', 'settled'];
    expect(first).toEqual({ found: every, requests: ['QueryCommand consistent EVENT_COUNTS#2003-03', 'QueryCommand EVENTS#2003-03'] });
    expect(second).toEqual({ found: every, requests: ['QueryCommand consistent EVENT_COUNTS#2003-03'] });
    expect(third).toEqual({ found: [...every, 'written after'].sort(), requests: ['QueryCommand consistent EVENT_COUNTS#2003-03', 'QueryCommand EVENTS#2003-03'] });
    expect(fourth).toEqual({ found: third.found, requests: ['QueryCommand consistent EVENT_COUNTS#2003-03'] });
    // Ten minutes on, the fresh events have settled in memory: still nothing but the counters.
    expect(fifth).toEqual({ found: third.found, requests: ['QueryCommand consistent EVENT_COUNTS#2003-03'] });
  });

  it('finds a counted event whose createdAt had settled before it was written, by reading the month again', async () => {
    const clock = new Date('2004-03-20T12:00:00.000Z');
    const months = new SettledMonths(store, () => clock);
    const window = [new Date('2004-03-01T00:00:00.000Z'), new Date('2004-03-21T00:00:00.000Z')] as const;
    await write(event('2004-03-10T08:00:00.000Z', 'early'));
    await readWith(months, window);

    await write(event(new Date(clock.getTime() - 3 * SETTLE_MS).toISOString(), 'late'));
    const after = await readWith(months, window);
    const again = await readWith(months, window);

    expect(after.found).toEqual(['early', 'late']);
    // The part past the settled events, strongly consistent once more, then the month whole.
    expect(after.requests).toEqual([
      'QueryCommand consistent EVENT_COUNTS#2004-03', 'QueryCommand EVENTS#2004-03', 'QueryCommand consistent EVENTS#2004-03',
      'QueryCommand consistent EVENT_COUNTS#2004-03', 'QueryCommand EVENTS#2004-03',
    ]);
    expect(again).toEqual({ found: ['early', 'late'], requests: ['QueryCommand consistent EVENT_COUNTS#2004-03'] });
    // Told to readers that count settled events themselves (the project activity), once.
    expect(months.lateCommitsFound()).toBe(1);
  });

  it('reads the unsettled part on every read of a month without counters, as before them, and sees every write', async () => {
    const clock = new Date('2005-03-20T12:00:00.000Z');
    const months = new SettledMonths(store, () => clock);
    const window = [new Date('2005-03-01T00:00:00.000Z'), new Date('2005-03-21T00:00:00.000Z')] as const;
    await writeUncounted(event('2005-03-10T08:00:00.000Z', 'old'), event('2005-03-20T11:58:00.000Z', 'fresh'));

    const first = await readWith(months, window);
    const second = await readWith(months, window);
    await writeUncounted(event('2005-03-20T11:59:00.000Z', 'uncounted later'));
    const third = await readWith(months, window);

    expect(first.found).toEqual(['fresh', 'old']);
    expect(second).toEqual({ found: ['fresh', 'old'], requests: ['QueryCommand consistent EVENT_COUNTS#2005-03', 'QueryCommand EVENTS#2005-03'] });
    expect(third.found).toEqual(['fresh', 'old', 'uncounted later']);
  });

  it('trusts the counters only from SETTLE_MS after the month counted its first event', async () => {
    const clock = new Date('2006-03-20T12:00:00.000Z');
    const months = new SettledMonths(store, () => clock);
    const window = [new Date('2006-03-01T00:00:00.000Z'), new Date('2006-03-21T00:00:00.000Z')] as const;
    // Events from before the counters, then the first counted one two minutes ago: a writer of
    // the code before them may still commit, uncounted.
    await writeUncounted(event('2006-03-10T08:00:00.000Z', 'before counting'));
    await write(event('2006-03-20T11:58:00.000Z', 'first counted'));

    await readWith(months, window);
    await writeUncounted(event('2006-03-20T11:58:30.000Z', 'uncounted meanwhile'));
    const second = await readWith(months, window);

    expect(second.found).toEqual(['before counting', 'first counted', 'uncounted meanwhile']);
    expect(second.requests).toEqual(['QueryCommand consistent EVENT_COUNTS#2006-03', 'QueryCommand EVENTS#2006-03']);
  });

  it("trusts at once the counters of a table this process made for itself, as npm start's own engine's", async () => {
    const ownTable = unique('event-counts-own');
    const created = [await prepareLocalTable({ region: 'local', endpoint }, ownTable), await prepareLocalTable({ region: 'local', endpoint }, ownTable)];
    trustEventCountsOf(readerDb, ownTable);
    const clock = new Date('2009-03-20T12:00:00.000Z');
    const months = new SettledMonths(new DynamoEventStore(readerDb, ownTable), () => clock);
    const window = [new Date('2009-03-01T00:00:00.000Z'), new Date('2009-03-21T00:00:00.000Z')] as const;
    // The month's first counted event is a minute old: on any other table its counters would wait.
    const writeOwn = async (...events: ChangeEvent[]) => {
      expect((await transactWriteDetailed(db, events.map((e) => eventItem(ownTable, e)))).ok).toBe(true);
    };
    await writeOwn(event('2009-03-20T11:59:00.000Z', 'first'));

    await readWith(months, window);
    const second = await readWith(months, window);
    await writeOwn(event('2009-03-20T11:59:30.000Z', 'second'));
    const third = await readWith(months, window);

    expect(created).toEqual([true, false]);
    expect(second).toEqual({ found: ['first'], requests: ['QueryCommand consistent EVENT_COUNTS#2009-03'] });
    expect(third.found).toEqual(['first', 'second']);
  });

  it('answers from memory a month that mixes uncounted events with counted ones once counting is old enough', async () => {
    const clock = new Date('2007-03-20T12:00:00.000Z');
    const months = new SettledMonths(store, () => clock);
    const window = [new Date('2007-03-01T00:00:00.000Z'), new Date('2007-03-21T00:00:00.000Z')] as const;
    await writeUncounted(event('2007-03-02T08:00:00.000Z', 'before counting'));
    await write(event('2007-03-05T08:00:00.000Z', 'counted'));
    await write(event('2007-03-20T11:59:00.000Z', 'fresh'));

    const first = await readWith(months, window);
    const second = await readWith(months, window);
    await write(event('2007-03-20T11:59:30.000Z', 'newest'));
    const third = await readWith(months, window);

    expect(first.found).toEqual(['before counting', 'counted', 'fresh']);
    expect(second).toEqual({ found: first.found, requests: ['QueryCommand consistent EVENT_COUNTS#2007-03'] });
    expect(third.found).toEqual(['before counting', 'counted', 'fresh', 'newest']);
  });
});
