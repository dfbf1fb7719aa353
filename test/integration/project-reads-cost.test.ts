import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { featureSearchQuerySchema } from '../../lib/features/search-schemas.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { keys } from '../../lib/store/table-design.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { storedFeature } from '../support/seed-features.js';
import { testConfig, unique, servicesOn } from '../support/services.js';

// Admin reads of one project touch only that project's items (issue 14, deliverable 3; ADR 17):
// the read units they consume, counted by the AWS-like engine from item sizes as DynamoDB bills
// them, are the same whether other projects hold 100 features or 10,000 (each with a last-seen
// time). Before ADR 17 each of these reads read every feature of every project.
let engine: AwsLikeEngine;

beforeAll(async () => {
  engine = await startAwsLikeDynamoDb({ target: inject('dynamodbLocal').endpoint });
});

afterAll(async () => {
  await engine?.stop();
});

/** A fresh install whose other project holds `others` features, written straight to DynamoDB Local. */
async function instanceWith(others: number): Promise<Services> {
  const tableName = unique('project-reads');
  const direct = { region: 'local', endpoint: inject('dynamodbLocal').endpoint };
  await prepareLocalTable(direct, tableName);
  const services = servicesOn(testConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: engine.endpoint }));
  await services.firstStart.ensure();
  await services.projects.create({ id: 'others', name: 'Others' }, 'test');
  const local = createDocumentClient(direct);
  const items = Array.from({ length: others }, (_, i) => {
    const feature = storedFeature(`other-${String(i).padStart(5, '0')}`, 'others', { description: 'x'.repeat(300) });
    return [
      { ...feature, ...keys.feature(feature.name) },
      { ...feature, ...keys.projectFeature('others', feature.name) },
      { ...keys.lastSeen(feature.name, 'development'), lastSeenAt: new Date().toISOString() },
    ];
  }).flat();
  for (let start = 0; start < items.length; start += 25) {
    let pending: unknown[] | undefined = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending && pending.length > 0) {
      const answer: { UnprocessedItems?: Record<string, unknown[]> } = await local.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }));
      pending = answer.UnprocessedItems?.[tableName];
    }
  }
  local.destroy();
  return services;
}

/** Read units each admin read of project `mine` (5 features, one archived) consumes. */
async function readsOfOneProject(others: number): Promise<Record<string, number>> {
  const services = await instanceWith(others);
  await services.projects.create({ id: 'mine', name: 'Mine' }, 'test');
  for (let i = 0; i < 5; i += 1) await services.features.lifecycle.create('mine', { name: `mine-${i}` }, 'test');
  await services.features.lifecycle.archive('mine', ['mine-4'], 'test');

  const counted = async (read: () => Promise<unknown>) => {
    const before = engine.stats().readUnits;
    await read();
    return engine.stats().readUnits - before;
  };
  const units = {
    listProject: await counted(async () => {
      const { features } = await services.features.lifecycle.listProject('mine');
      expect(features.map((f) => f.name).sort()).toEqual(['mine-0', 'mine-1', 'mine-2', 'mine-3']);
      await services.features.views.contextsFor(features);
    }),
    archived: await counted(async () => {
      expect((await services.features.lifecycle.listArchived('mine')).map((f) => f.name)).toEqual(['mine-4']);
    }),
    overview: await counted(async () => {
      expect((await services.projects.overview('mine')).features).toHaveLength(4);
    }),
    search: await counted(async () => {
      const result = await services.features.search.search(featureSearchQuerySchema.parse({ project: 'IS:mine', limit: '2' }));
      expect(result.total).toBe(4);
      expect(result.hits).toHaveLength(2);
    }),
    stats: await counted(() => services.projectStats.forProject('mine')),
    deleteRefused: await counted(async () => {
      await expect(services.projects.delete('mine', 'test')).rejects.toThrow(/feature/i);
    }),
    // A search of every project filters the container's snapshot (ADR 20): once warm, a page
    // after a change reads the revision, the change log and the changed feature.
    searchEverywhereAfterAChange: await (async () => {
      await services.features.search.search(featureSearchQuerySchema.parse({ limit: '2' }));
      await services.features.lifecycle.create('mine', { name: 'mine-5' }, 'test');
      return counted(async () => {
        const result = await services.features.search.search(featureSearchQuerySchema.parse({ query: 'mine-5' }));
        expect(result.hits.map((hit) => hit.feature.name)).toEqual(['mine-5']);
      });
    })(),
  };
  return units;
}

describe('admin reads of one project, and a search of every project once warm', () => {
  it('consume the same read units whether other projects hold 100 or 10,000 features', async () => {
    const small = await readsOfOneProject(100);
    const large = await readsOfOneProject(10_000);

    expect(large).toEqual(small);
    // And they are small: a few units each, not the 10,000 features' ~1,000.
    for (const units of Object.values(large)) expect(units).toBeLessThan(20);
  }, 600_000);
});
