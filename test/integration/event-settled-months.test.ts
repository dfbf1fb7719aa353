import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DynamoEventStore, eventItem } from '../../lib/events/dynamo-store.js';
import type { ChangeEvent } from '../../lib/events/model.js';
import { SETTLE_MS, SettledMonths } from '../../lib/events/settled-months.js';
import type { EventReader } from '../../lib/events/store.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { unique } from '../support/services.js';

/** The store, with the windows it was asked to read written down. */
class RecordedReads implements EventReader {
  readonly asked: Array<[string, string]> = [];
  constructor(private readonly store: EventReader) {}
  between(from: Date, to: Date) {
    this.asked.push([from.toISOString(), to.toISOString()]);
    return this.store.between(from, to);
  }
  ofFeature(featureName: string, from: Date, to: Date) {
    return this.store.ofFeature(featureName, from, to);
  }
  newestFirst(from: Date, to: Date) {
    this.asked.push([from.toISOString(), to.toISOString()]);
    return this.store.newestFirst(from, to);
  }
}

/**
 * A month of events kept in the container: read once, then only from where it had settled, on a
 * table of its own in DynamoDB Local, with a clock the test moves (March 2001).
 */
describe('the event log keeps settled months', () => {
  const tableName = unique('settled-months');
  const db = createDocumentClient({ region: 'local', endpoint: inject('dynamodb').endpoint });
  let clock = new Date('2001-03-20T12:00:00.000Z');
  const event = (createdAt: string, project: string): ChangeEvent => ({ id: unique('event'), type: 'project-created', createdAt, createdBy: 'test', project });
  const write = (...events: ChangeEvent[]) => db.send(new TransactWriteCommand({ TransactItems: events.map((e) => eventItem(tableName, e)) }));
  const projects = (events: ChangeEvent[]) => events.map((e) => e.project).sort();

  beforeAll(() => prepareLocalTable({ region: 'local', endpoint: inject('dynamodb').endpoint }, tableName));
  afterAll(() => db.destroy());

  it('reads a month once, then only the events since it settled, and still answers every event of the window', async () => {
    const store = new RecordedReads(new DynamoEventStore(db, tableName));
    const months = new SettledMonths(store, () => clock);
    await write(event('2001-02-28T23:59:59.000Z', 'february'), event('2001-03-10T08:00:00.000Z', 'a'), event('2001-03-15T09:00:00.000Z', 'b'));
    await write(event('2001-03-20T11:58:00.000Z', 'fresh'));
    const window = [new Date('2001-03-01T00:00:00.000Z'), new Date('2001-03-21T00:00:00.000Z')] as const;

    const first = await months.between(...window);
    await write(event('2001-03-20T11:59:30.000Z', 'later'));
    const second = await months.between(...window);
    clock = new Date(clock.getTime() + 10 * 60_000);
    const third = await months.between(...window);
    const fourth = await months.between(new Date('2001-03-12T00:00:00.000Z'), window[1]);

    expect(projects(first)).toEqual(['a', 'b', 'fresh']);
    expect(projects(second)).toEqual(['a', 'b', 'fresh', 'later']);
    expect(projects(third)).toEqual(['a', 'b', 'fresh', 'later']);
    expect(projects(fourth)).toEqual(['b', 'fresh', 'later']);
    const settledAtFirst = new Date(Date.parse('2001-03-20T12:00:00.000Z') - SETTLE_MS).toISOString();
    const settledAtThird = new Date(Date.parse('2001-03-20T12:10:00.000Z') - SETTLE_MS).toISOString();
    expect(store.asked).toEqual([
      ['2001-03-01T00:00:00.000Z', '2001-04-01T00:00:00.000Z'],
      [settledAtFirst, '2001-04-01T00:00:00.000Z'],
      [settledAtFirst, '2001-04-01T00:00:00.000Z'],
      [settledAtThird, '2001-04-01T00:00:00.000Z'],
    ]);
  });

  it('reads a month once for callers that ask at the same time, the later one only past what the first kept', async () => {
    const store = new RecordedReads(new DynamoEventStore(db, tableName));
    const months = new SettledMonths(store, () => clock);
    const window = [new Date('2001-03-01T00:00:00.000Z'), new Date('2001-03-21T00:00:00.000Z')] as const;

    // A project page's header and status, asked at once of a new container.
    const [header, status] = await Promise.all([months.between(...window), months.between(...window)]);

    expect(projects(header)).toEqual(['a', 'b', 'fresh', 'later']);
    expect(projects(status)).toEqual(projects(header));
    const settled = new Date(clock.getTime() - SETTLE_MS).toISOString();
    expect(store.asked).toEqual([['2001-03-01T00:00:00.000Z', '2001-04-01T00:00:00.000Z'], [settled, '2001-04-01T00:00:00.000Z']]);
  });

  it('reads each month of a longer window, kept apart', async () => {
    const store = new RecordedReads(new DynamoEventStore(db, tableName));
    const months = new SettledMonths(store, () => clock);

    const found = await months.between(new Date('2001-02-01T00:00:00.000Z'), new Date('2001-03-11T00:00:00.000Z'));
    const again = await months.between(new Date('2001-02-01T00:00:00.000Z'), new Date('2001-03-11T00:00:00.000Z'));

    expect(projects(found)).toEqual(['a', 'february']);
    expect(projects(again)).toEqual(['a', 'february']);
    expect(store.asked.slice(0, 2)).toEqual([
      ['2001-02-01T00:00:00.000Z', '2001-03-01T00:00:00.000Z'],
      ['2001-03-01T00:00:00.000Z', '2001-04-01T00:00:00.000Z'],
    ]);
    // February ended long before the clock's settled time: nothing of it is read again.
    expect(store.asked.slice(2).map(([from]) => from)).toEqual([new Date(clock.getTime() - SETTLE_MS).toISOString()]);
  });
});
