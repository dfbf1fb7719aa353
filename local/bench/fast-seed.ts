/**
 * Seeding thousands of flags fast: a few template flags go through the admin API (so every item
 * has exactly the shape our writes give it: strategies, variants, segments, tags), then the rest
 * are copies of them written straight to DynamoDB Local with BatchWriteItem, 25 items a request,
 * a few requests in flight. A copy gets its own name and strategy ids, and its copy in its
 * project's partition (ADR 17). Flags fill projects of PROJECT_FLAGS each, the issue's largest
 * (10,000 in one project and environment): `default` first, then bench-project-1, 2, … Each
 * project's feature count (ADR 14) is moved by its copies at the end, on one of its shards, so
 * what reads the counts (the project list, the full lists' limit) sees every flag.
 */
import { BatchWriteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { createDocumentClient, type DynamoConnection } from '../../lib/store/document-client.js';
import { keys } from '../../lib/store/table-design.js';
import { DynamoRevisionStore } from '../../lib/store/revision-store.js';
import { createFlag, flagName, progressBar, seedSegments, type Admin } from './seed.js';

/** Flags made through the admin API before the copies; they vary by index modulo 2, 3, 4, 5 and 6. */
export const TEMPLATES = 60;
/** Flags per BatchWriteItem: each is two items (the feature and its project's copy), of DynamoDB's 25 a request. */
const BATCH = 12;
const IN_FLIGHT = 4;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Flags in one project at most. */
export const PROJECT_FLAGS = 10_000;

/** The project of flag `index`; the templates are all in `default`. */
export const benchProject = (index: number): string =>
  index < PROJECT_FLAGS ? 'default' : `bench-project-${Math.floor(index / PROJECT_FLAGS)}`;

/**
 * The item of flag `index` made from its template's item: the template's name and ids replaced,
 * in the flag's project.
 */
export function copyOfTemplate(template: Record<string, unknown>, templateName: string, index: number): Record<string, unknown> {
  const name = flagName(index);
  const ids = new Map<string, string>();
  const text = JSON.stringify(template)
    .replaceAll(templateName, name)
    .replace(UUID, (id) => ids.get(id) ?? (ids.set(id, randomUUID()), ids.get(id) as string));
  return { ...(JSON.parse(text) as Record<string, unknown>), project: benchProject(index), ...keys.feature(name) };
}

/** Template flags made through the admin API: TEMPLATES unless fewer are asked (they seed faster and vary less). */
export async function seedFlagsFast(admin: Admin, direct: DynamoConnection, tableName: string, count: number, wanted = TEMPLATES): Promise<void> {
  const segmentIds = await seedSegments(admin);
  for (let index = PROJECT_FLAGS; index < count; index += PROJECT_FLAGS) {
    const id = benchProject(index);
    await admin('POST', '/api/admin/projects', { id, name: id, environments: ['development', 'production'] });
  }
  const templates = Math.min(count, wanted);
  const bar = progressBar(count);
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < templates) {
      const index = next;
      next += 1;
      await createFlag(admin, index, segmentIds[index % segmentIds.length] as number);
      bar.tick();
    }
  }));
  const db = createDocumentClient(direct);
  try {
    const items: Record<string, unknown>[] = [];
    for (let index = 0; index < templates; index += 1) {
      const got = await db.send(new GetCommand({ TableName: tableName, Key: keys.feature(flagName(index)), ConsistentRead: true }));
      if (!got.Item) throw new Error(`template ${flagName(index)} not found in ${tableName}`);
      items.push(got.Item);
    }
    let first = templates;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (first < count) {
        const start = first;
        const end = Math.min(count, start + BATCH);
        first = end;
        let pending: unknown[] | undefined = [];
        for (let index = start; index < end; index += 1) {
          const copy = copyOfTemplate(items[index % templates] as Record<string, unknown>, flagName(index % templates), index);
          pending.push({ PutRequest: { Item: copy } });
          pending.push({ PutRequest: { Item: { ...copy, ...keys.projectFeature(copy.project as string, flagName(index)) } } });
        }
        while (pending && pending.length > 0) {
          const answer: { UnprocessedItems?: Record<string, unknown[]> } = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }));
          pending = answer.UnprocessedItems?.[tableName];
        }
        for (let index = start; index < end; index += 1) bar.tick();
      }
    }));
    const copies = new Map<string, number>();
    for (let index = templates; index < count; index += 1) copies.set(benchProject(index), (copies.get(benchProject(index)) ?? 0) + 1);
    for (const [project, added] of copies) {
      await db.send(new UpdateCommand({
        TableName: tableName, Key: keys.projectFeatureCount(project, 0),
        UpdateExpression: 'ADD featureCount :added', ExpressionAttributeValues: { ':added': added },
      }));
    }
    // The copies bypassed the revision: one change that says "everything", as a bulk load must,
    // so SDK containers and the stored SDK snapshot (ADR 20) read them all.
    await new DynamoRevisionStore(db, tableName).commit([], { everything: true });
  } finally {
    db.destroy();
    bar.done();
  }
}
