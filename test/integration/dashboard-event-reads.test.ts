import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createComposition, type Composition } from '../../lib/composition/composition.js';
import { personalDashboard } from '../../lib/composition/slices/personal-dashboard.js';
import { loadConfig } from '../../lib/config.js';
import { DynamoEventStore, eventItem } from '../../lib/events/dynamo-store.js';
import type { ChangeEvent } from '../../lib/events/model.js';
import { unleashEvents } from '../../lib/events/wire.js';
import type { UserCaller } from '../../lib/http/caller.js';
import { ROOT_ROLE } from '../../lib/roles/model.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { createServices } from '../../local/app-services.js';
import { unique } from '../support/services.js';

/**
 * The personal dashboard's project card reads its newest events newest first and stops once it
 * has ten: a busy project's card is one Query of events, not its month read whole. A quiet
 * project's card reads back through the months and keeps them in the container, so they are
 * read once. On a table of its own, with events in 2001 (a clock the test sets).
 */
describe("the dashboard's project card reads the newest events first", () => {
  const endpoint = inject('dynamodb').endpoint;
  const tableName = unique('dashboard-events');
  const config = loadConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'local' });
  const clock = new Date('2001-03-20T12:00:00.000Z');
  const caller: UserCaller = { tokenName: 'viewer', type: 'admin', environment: '*', projects: ['*'], userId: 4242, rootRole: ROOT_ROLE.Viewer };
  const seeding = createComposition(config);
  const compositions: Composition[] = [seeding];
  let sequence = 0;
  /** Events a minute apart from `start`, of `project`; every third names two changes, which the event log lists as two actions. */
  const eventsFrom = (start: string, project: string, count: number): ChangeEvent[] => Array.from({ length: count }, (_, index) => ({
    id: `${String((sequence += 1)).padStart(6, '0')}-${unique('event')}`,
    type: 'feature-changed', createdBy: 'seed', project, featureName: `${project}-flag-${index % 4}`,
    createdAt: new Date(Date.parse(start) + index * 60_000).toISOString(),
    changes: index % 3 === 0 ? ['enabled:development', 'strategies:development'] : ['disabled:development'],
  }));
  const write = async (events: ChangeEvent[]) => {
    for (let index = 0; index < events.length; index += 25) {
      await seeding.store.db.send(new TransactWriteCommand({ TransactItems: events.slice(index, index + 25).map((event) => eventItem(tableName, event)) }));
    }
  };

  /** A fresh container's dashboard, with its Queries of the event partitions counted (once each, whatever the retries). */
  function freshDashboard() {
    const composition = createComposition(config, { now: () => clock });
    compositions.push(composition);
    let eventQueries = 0;
    let eventsRead = 0;
    composition.store.db.middlewareStack.add((next, context) => async (args) => {
      const input = args.input as { ExpressionAttributeValues?: Record<string, unknown> };
      if (context.commandName !== 'QueryCommand' || !String(input.ExpressionAttributeValues?.[':pk'] ?? '').startsWith('EVENTS#')) return next(args);
      eventQueries += 1;
      const result = await next(args);
      eventsRead += (result.output as { Items?: unknown[] }).Items?.length ?? 0;
      return result;
    }, { step: 'initialize', name: 'countEventQueries' });
    const { personalDashboard: dashboard } = composition.once(personalDashboard);
    return {
      card: async (projectId: string) => {
        const [queriesBefore, readBefore] = [eventQueries, eventsRead];
        const card = await dashboard.projectDetails(caller, projectId);
        return { latestEvents: card.latestEvents, eventQueries: eventQueries - queriesBefore, eventsRead: eventsRead - readBefore };
      },
    };
  }

  /** What the card lists, worked out from every event of its twelve months read oldest first and sorted. */
  async function expectedLatest(projectId: string) {
    const every = await new DynamoEventStore(seeding.store.db, tableName).between(new Date('2000-04-01T00:00:00.000Z'), new Date(clock.getTime() + 1));
    return every.filter((event) => event.project === projectId).flatMap(unleashEvents)
      .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
      .slice(0, 10)
      .map((event) => ({ id: event.id, summary: event.summary, createdAt: event.createdAt }));
  }
  const listed = (events: Array<{ id: string; summary: string; createdAt: string }>) => events.map(({ id, summary, createdAt }) => ({ id, summary, createdAt }));

  beforeAll(async () => {
    await prepareLocalTable({ region: 'local', endpoint }, tableName);
    const services = createServices(seeding);
    await services.firstStart.ensure();
    await services.projects.create({ id: 'quiet', name: 'quiet' }, 'seed');
    // The quiet project's events in January, under two months of the default project's.
    await write([...eventsFrom('2001-01-10T09:00:00.000Z', 'quiet', 4), ...eventsFrom('2001-02-01T00:00:00.000Z', 'default', 30), ...eventsFrom('2001-03-01T00:00:00.000Z', 'default', 40)]);
    // Two events of one time: the larger id is the newer, as the event log orders them.
    const [tied, other] = eventsFrom('2001-03-19T00:00:00.000Z', 'default', 2);
    await write([{ ...tied!, id: `zz-${tied!.id}` }, { ...other!, createdAt: tied!.createdAt }]);
  });
  afterAll(() => { for (const composition of compositions) composition.store.db.destroy(); });

  it("lists a busy project's ten newest events from one Query of the newest, on a cold container and a warm one", async () => {
    const dashboard = freshDashboard();

    const cold = await dashboard.card('default');
    const warm = await dashboard.card('default');

    expect(listed(cold.latestEvents)).toEqual(await expectedLatest('default'));
    expect(listed(warm.latestEvents)).toEqual(listed(cold.latestEvents));
    // The first page of March's 42 events (reading the month whole would read them all).
    expect([cold.eventQueries, cold.eventsRead]).toEqual([1, 25]);
    expect([warm.eventQueries, warm.eventsRead]).toEqual([1, 25]);
  });

  it("reads a quiet project's months back until it has found its events, then has them kept", async () => {
    const dashboard = freshDashboard();

    const cold = await dashboard.card('quiet');
    const warm = await dashboard.card('quiet');

    const expected = await expectedLatest('quiet');
    expect(expected.length).toBeGreaterThan(0);
    expect(listed(cold.latestEvents)).toEqual(expected);
    expect(listed(warm.latestEvents)).toEqual(expected);
    // Each month's first page of 25 newest, then, as the card wants more, the month read whole
    // and kept: March's 42, February's 30 and January's 4 in two Queries each; the nine empty
    // months before them in one each, kept empty. All settled long ago: the warm card reads none.
    expect([cold.eventQueries, cold.eventsRead]).toEqual([2 + 2 + 2 + 9, (25 + 42) + (25 + 30) + (4 + 4)]);
    expect([warm.eventQueries, warm.eventsRead]).toEqual([0, 0]);
  });

  it('reads every event of a window newest first, in the reverse of the order by time', async () => {
    const store = new DynamoEventStore(seeding.store.db, tableName);
    const window = [new Date('2000-12-15T00:00:00.000Z'), new Date('2001-03-19T00:00:01.000Z')] as const;

    const pages: ChangeEvent[][] = [];
    for await (const page of store.newestFirst(...window)) pages.push(page);

    const oldestFirst = await store.between(...window);
    expect(oldestFirst.length).toBeGreaterThan(25);
    expect(pages.flat().map((event) => event.id)).toEqual(oldestFirst.map((event) => event.id).reverse());
    expect(pages[0]).toHaveLength(25);
  });
});
