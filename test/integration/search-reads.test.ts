import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Feature } from '../../lib/features/model.js';
import { featureReadModel } from '../../lib/composition/read-model.js';
import { featureReads } from '../../lib/composition/stores.js';
import { featureSearchQuerySchema } from '../../lib/features/search-schemas.js';
import { toSearchItemWire } from '../../lib/features/search-wire.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { keys } from '../../lib/store/table-design.js';
import type { Services } from '../../local/app-services.js';
import { seedFeatures } from '../support/seed-features.js';
import { freshInstanceServices, servicesOn } from '../support/services.js';

/*
 * What one page of the feature search reads, on a table of its own (so no other test moves its
 * revision between two counts): once the process holds the admin read model, the project flag
 * list's page is the revision check, every environment, the project and the page's last-seen
 * times by key, whatever the project holds; a cold process reads the project's copies instead
 * (ADR 17) and answers the same.
 */
const FEATURES = 40;
/** A project large enough that its first cold read starts the read model (WARM_AFTER_PROJECT_FEATURES). */
const LARGE = 260;
let services: Services;
let segmentName: string;

const query = (params: Record<string, string>) => featureSearchQuerySchema.parse(params);
const PROJECT_PAGE = { project: 'IS:default', limit: '25', offset: '0', sortBy: 'createdAt', sortOrder: 'desc', favoritesFirst: 'true' };

beforeAll(async () => {
  services = await freshInstanceServices();
  segmentName = `segment-${randomUUID().slice(0, 8)}`;
  const segment = await services.segments.create({ name: segmentName, constraints: [] }, 'test');
  const features: Feature[] = Array.from({ length: FEATURES }, (_, i) => ({
    name: `page-${String(i).padStart(3, '0')}`, project: 'default', type: 'release', description: null, impressionData: false,
    stale: false, archived: false, archivedAt: null, tags: [], dependencies: [], children: [], version: 1,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    environments: {
      development: {
        enabled: i % 2 === 0, variants: [],
        strategies: [{ id: randomUUID(), name: 'default', title: null, disabled: false, sortOrder: 0, constraints: [], parameters: {}, variants: [], segments: i % 3 === 0 ? [segment.id] : [] }],
      },
    },
  }));
  await seedFeatures(services.featureStore, features);
  await services.projects.create({ id: 'large', name: 'Large' }, 'test');
  await seedFeatures(services.featureStore, Array.from({ length: LARGE }, (_, i) => ({
    ...(features[0] as Feature), name: `large-${String(i).padStart(3, '0')}`, project: 'large', createdAt: new Date(Date.UTC(2026, 0, 2, 0, i)).toISOString(),
  })));
  // The seeding above moves no project count (ADR 14): the large project's count is moved as its
  // creates through the service would have moved it, since a cold read chooses by it.
  await services.composition.store.db.send(new UpdateCommand({
    TableName: services.composition.store.tableName, Key: keys.projectFeatureCount('large', 0),
    UpdateExpression: 'ADD featureCount :created', ExpressionAttributeValues: { ':created': LARGE },
  }));
  await services.metrics.markSeen(features.filter((_, i) => i % 4 === 0).map((f) => ({ feature: f.name, environment: 'development', at: '2026-02-01T10:00:00.000Z' })));
});

/** The search's answer as sent, with the DynamoDB requests it cost. */
async function searched(on: Services, params: Record<string, string>, favourites: ReadonlySet<string> | (() => Promise<ReadonlySet<string>>) = new Set()) {
  const before = on.dynamoRequests.snapshot();
  const result = await on.features.search.search(query(params), favourites);
  return {
    total: result.total,
    items: result.hits.map(toSearchItemWire),
    requests: countsSince(before, on.dynamoRequests.snapshot()).byOperation,
  };
}

describe("a page of the project's flag list", () => {
  it('reads, once warm, the revision, every environment, the project and the page\'s last-seen times in one BatchGetItem', async () => {
    const warm = servicesOn(services.config);
    await searched(warm, { limit: '1' });

    const page = await searched(warm, PROJECT_PAGE);

    expect(page.total).toBe(FEATURES);
    expect(page.items.map((item) => item.name)).toEqual(
      Array.from({ length: 25 }, (_, i) => `page-${String(FEATURES - 1 - i).padStart(3, '0')}`));
    // The revision check is one Query of its shards (nothing changed since the warm-up), and the
    // project's metrics-stage items one more, read at the same time.
    expect(page.requests).toEqual({ Query: 3, GetItem: 1, BatchGetItem: 1 });
    const seen = page.items.find((item) => item.name === 'page-036');
    expect(seen?.lastSeenAt).toBe('2026-02-01T10:00:00.000Z');
    expect(seen?.environments.find((environment) => environment.name === 'development')?.lastSeenAt).toBe('2026-02-01T10:00:00.000Z');
    expect(page.items.find((item) => item.name === 'page-039')?.segments).toEqual([segmentName]);
    expect(page.items.find((item) => item.name === 'page-038')?.segments).toEqual([]);
  });

  it('answers a cold process, which reads the project\'s copies, exactly as a warm one', async () => {
    const warm = servicesOn(services.config);
    await searched(warm, { limit: '1' });
    const cold = servicesOn(services.config);
    const starred = new Set(['page-001', 'page-036']);

    const fromCold = await searched(cold, PROJECT_PAGE, starred);
    const fromWarm = await searched(warm, PROJECT_PAGE, starred);

    expect(fromCold.items.slice(0, 2).map((item) => [item.name, item.favorite])).toEqual([['page-036', true], ['page-001', true]]);
    expect(fromWarm.items).toEqual(fromCold.items);
    expect(fromWarm.total).toBe(fromCold.total);
  });

  it('sees a change made on another process at once, as the project\'s own read did', async () => {
    const warm = servicesOn(services.config);
    await searched(warm, PROJECT_PAGE);
    const name = `late-${randomUUID().slice(0, 8)}`;

    await services.features.lifecycle.create('default', { name }, 'test');
    const page = await searched(warm, { ...PROJECT_PAGE, query: name });

    expect(page.items.map((item) => item.name)).toEqual([name]);
  });

  it("reads no last-seen time nor the caller's favourites when the filters before them leave nothing (the project page's count of flags to clean up)", async () => {
    const warm = servicesOn(services.config);
    await searched(warm, { limit: '1' });
    let favouriteReads = 0;
    const favourites = async () => {
      favouriteReads += 1;
      return new Set(['page-000']);
    };

    const count = await searched(warm, { project: 'IS:default', lifecycle: 'IS:completed', lastSeenAt: 'IS_BEFORE:2026-03-01', limit: '25', offset: '0' }, favourites);
    const readsForCount = favouriteReads;
    const page = await searched(warm, { project: 'IS:default', limit: '25', offset: '0', sortBy: 'name', sortOrder: 'asc' }, favourites);

    expect(count).toEqual({ total: 0, items: [], requests: { Query: 2 } });
    expect(readsForCount).toBe(0);
    expect(favouriteReads).toBe(1);
    expect(page.items.filter((item) => item.favorite).map((item) => item.name)).toEqual(['page-000']);
  });

  it('filters by last seen with the times of the features left only, read by key', async () => {
    const warm = servicesOn(services.config);
    await searched(warm, { limit: '1' });

    const stale = await searched(warm, { project: 'IS:default', lastSeenAt: 'IS_BEFORE:2026-03-01', limit: '25', offset: '0', sortBy: 'name', sortOrder: 'asc' });

    expect(stale.total).toBe(FEATURES / 4);
    expect(stale.items.map((item) => item.name)).toEqual(Array.from({ length: FEATURES / 4 }, (_, i) => `page-${String(i * 4).padStart(3, '0')}`));
    expect(stale.requests).toEqual({ Query: 3, GetItem: 1, BatchGetItem: 1 });
  });
});

describe('a cold process', () => {
  const isWarm = (on: Services) => on.composition.once(featureReadModel).isWarm();
  /** The projects whose copies `on` reads from now on (its feature store's reads and the snapshot's), in the order read. */
  const projectReadsOf = (on: Services) => {
    const listed: string[] = [];
    for (const reader of [on.featureStore, on.composition.once(featureReads)]) {
      const listProject = reader.listProject.bind(reader);
      reader.listProject = async (project) => {
        listed.push(project);
        return listProject(project);
      };
    }
    return listed;
  };

  it("reads a small project's copies on every page, and a large project's first page from the read model, not its copies", async () => {
    const cold = servicesOn(services.config);

    await searched(cold, PROJECT_PAGE);
    const smallAgain = await searched(cold, PROJECT_PAGE);
    const stillCold = isWarm(cold);
    const listed = projectReadsOf(cold);
    const largeFirst = await searched(cold, { ...PROJECT_PAGE, project: 'IS:large' });
    const largeListed = [...listed];
    const largeNext = await searched(cold, { ...PROJECT_PAGE, project: 'IS:large' });

    expect(stillCold).toBe(false);
    // The project's count (one small Query), its copies (one Query page for 40 features) in place
    // of the revision check, and the page's one segment by key, as the read model's segments are
    // not there.
    expect(smallAgain.requests).toEqual({ Query: 3, GetItem: 2, BatchGetItem: 1 });
    expect(isWarm(cold)).toBe(true);
    // The large project's count decides: the read model is read (here, with no stored snapshot,
    // every project's copies), and the project's 260 copies are not read before it as well.
    expect(largeListed.filter((project) => project === 'large')).toEqual(['large']);
    expect(largeFirst.total).toBe(LARGE);
    expect(largeNext.items).toEqual(largeFirst.items);
    expect(largeNext.requests).toEqual({ Query: 3, GetItem: 1, BatchGetItem: 1 });
  });
});

describe('last-seen times of an environment that no longer exists', () => {
  it('count towards lastSeenAt neither on a page read by key nor on a filter that reads every last-seen item', async () => {
    // A last-seen item left by a deleted environment, newer than the flag's only real one.
    await services.metrics.markSeen([
      { feature: 'large-000', environment: 'development', at: '2026-02-01T10:00:00.000Z' },
      { feature: 'large-000', environment: 'removed-environment', at: '2026-06-01T10:00:00.000Z' },
    ]);
    const on = servicesOn(services.config);

    const page = await searched(on, { project: 'IS:large', limit: '25', offset: '0', sortBy: 'name', sortOrder: 'asc' });
    // Every seen feature of the large project (260 × its environments: past the read by key).
    const filtered = await searched(on, { project: 'IS:large', lastSeenAt: 'IS_BEFORE:2026-03-01', limit: '25', offset: '0', sortBy: 'name', sortOrder: 'asc' });

    expect(page.items[0]?.name).toBe('large-000');
    expect(page.items[0]?.lastSeenAt).toBe('2026-02-01T10:00:00.000Z');
    expect(filtered.items.map((item) => item.name)).toEqual(['large-000']);
    expect(filtered.items[0]?.lastSeenAt).toBe('2026-02-01T10:00:00.000Z');
  });
});
