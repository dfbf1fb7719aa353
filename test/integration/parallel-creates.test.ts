import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { FEATURE_COUNT_SHARDS } from '../../lib/features/dynamo-feature-counts.js';
import { keys } from '../../lib/store/table-design.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { localContext } from '../../local/api-gateway-event.js';
import { apiClient, resendWhileUnavailable, type ApiResponse } from '../support/api.js';
import { adminToken, testServices, unique } from '../support/services.js';

// Parallel feature writes in one project, through an engine of this file's own that cancels
// overlapping transactions and throttles hot partitions as DynamoDB does (whatever the run's
// engine is). Before ADR 14 every create in a project moved one counter on the project item:
// 200 parallel creates gave 60 × 201 and 140 × 503.
let engine: AwsLikeEngine;
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;

beforeAll(async () => {
  engine = await startAwsLikeDynamoDb({ target: inject('dynamodbLocal').endpoint });
  services = testServices({ DYNAMODB_ENDPOINT: engine.endpoint });
  call = apiClient(services);
  token = await adminToken(services);
});

afterAll(async () => {
  await engine?.stop();
});

/**
 * In AWS each of 200 parallel requests runs in a function instance of its own with 10 s; here
 * they share one process and one DynamoDB Local on two busy cores, so each gets a time limit no
 * machine reaches: what is tested is how the writes meet, not how fast this machine serves them.
 */
const admin = (method: string, path: string, body?: unknown) =>
  call({ method, path, token, body, context: localContext('test-parallel', 10 * 60_000) });

async function newProject(settings: Record<string, unknown> = {}): Promise<string> {
  const id = unique('proj');
  const res = await admin('POST', '/api/admin/projects', { id, name: id, ...settings });
  expect(res.status).toBe(201);
  return id;
}

const createFeature = (project: string, name = unique('feat')) =>
  admin('POST', `/api/admin/projects/${project}/features`, { name });

async function featureCount(project: string): Promise<number> {
  const res = await admin('GET', '/api/admin/projects');
  return res.body.projects.find((p: { id: string }) => p.id === project).featureCount;
}

function statuses(responses: ApiResponse[]): Record<number, number> {
  const counted: Record<number, number> = {};
  for (const { status } of responses) counted[status] = (counted[status] ?? 0) + 1;
  return counted;
}

describe('200 parallel creates of different features in one project', () => {
  // The 200 creates send about 2,600 DynamoDB requests through one process and one DynamoDB Local
  // on two cores, so how long they take is how loaded the machine is (48-53 s at a load average
  // of 17-21); no AWS limit is at stake, each request has 10 minutes (above). Under the default
  // 30 s the machine's load, not the writes, would decide the test.
  it('all succeed, none answers 5xx, and the project counts all 200', { timeout: 300_000 }, async () => {
    const project = await newProject();
    const before = engine.stats();
    const started = Date.now();

    const responses = await Promise.all(Array.from({ length: 200 }, () => createFeature(project)));

    const after = engine.stats();
    console.log(
      `200 parallel creates in one project: ${JSON.stringify(statuses(responses))} in ${Date.now() - started} ms; ` +
        `DynamoDB requests ${after.requests - before.requests}, at most ${after.mostAtOnce} at once, ` +
        `cancelled transactions ${after.cancelledTransactions - before.cancelledTransactions}, ` +
        `throttled ${after.throttled - before.throttled}`,
    );
    expect(statuses(responses)).toEqual({ 201: 200 });
    expect(await featureCount(project)).toBe(200);
  });
});

describe("a project's feature limit under parallel creates", () => {
  // Every create of a limited project moves the same shard (they must take turns to count right),
  // so some may spend their retries: they answer 503, having written nothing, and a client resends.
  it('lets exactly the limit in and refuses the rest with 400; a create that kept meeting others answers 503 and writes nothing', async () => {
    const project = await newProject({ featureLimit: 10 });

    const responses = await Promise.all(
      Array.from({ length: 40 }, () => resendWhileUnavailable(() => createFeature(project))),
    );

    expect(statuses(responses)).toEqual({ 201: 10, 400: 30 });
    expect(responses.find((res) => res.status === 400)?.body.message).toMatch(/maximum number of feature toggles/);
    expect(await featureCount(project)).toBe(10);
    expect((await admin('GET', `/api/admin/projects/${project}/features`)).body.features).toHaveLength(10);
  });

  it('applies a limit set after features exist, and lifting it lets creates in again', async () => {
    const project = await newProject();
    for (let i = 0; i < 3; i += 1) expect((await createFeature(project)).status).toBe(201);
    const limited = await admin('PUT', `/api/admin/projects/${project}`, { name: project, featureLimit: 3 });
    expect(limited.status).toBe(200);
    expect((await createFeature(project)).status).toBe(400);

    const lifted = await admin('PUT', `/api/admin/projects/${project}`, { name: project, featureLimit: null });
    expect(lifted.status).toBe(200);
    expect((await createFeature(project)).status).toBe(201);
    expect(await featureCount(project)).toBe(4);
  });

  it('counts archived features out, so the limit frees room', async () => {
    const project = await newProject({ featureLimit: 2 });
    const first = unique('feat');
    expect((await createFeature(project, first)).status).toBe(201);
    expect((await createFeature(project)).status).toBe(201);
    expect((await createFeature(project)).status).toBe(400);
    expect((await admin('DELETE', `/api/admin/projects/${project}/features/${first}`)).status).toBe(202);
    expect((await createFeature(project)).status).toBe(201);
    expect(await featureCount(project)).toBe(2);
  });
});

describe('deleting a project while features are created in it', () => {
  it('either refuses the delete or leaves no feature in the deleted project, never both', async () => {
    const project = await newProject();
    const names = Array.from({ length: 20 }, () => unique('feat'));

    const [deleted, ...created] = await Promise.all([
      admin('DELETE', `/api/admin/projects/${project}`),
      ...names.map((name) => createFeature(project, name)),
    ]);

    expect([...created.map((res) => res.status), deleted.status].every((status) => status < 500)).toBe(true);
    const stored = await Promise.all(names.map((name) => services.featureStore.get(name)));
    if (deleted.status === 200) {
      expect(stored.filter((feature) => feature !== undefined)).toEqual([]);
      expect(created.every((res) => res.status === 404)).toBe(true);
    } else {
      expect(deleted.status).toBe(400);
      expect(await featureCount(project)).toBe(stored.filter((feature) => feature !== undefined).length);
    }
  });

  it('deletes an emptied project with every shard of its count', async () => {
    const project = await newProject();
    const name = unique('feat');
    expect((await createFeature(project, name)).status).toBe(201);
    expect((await admin('DELETE', `/api/admin/projects/${project}`)).status).toBe(400);
    expect((await admin('DELETE', `/api/admin/projects/${project}/features/${name}`)).status).toBe(202);
    expect((await admin('DELETE', `/api/admin/archive/${name}`)).status).toBe(200);

    expect((await admin('DELETE', `/api/admin/projects/${project}`)).status).toBe(200);
    const shards = await Promise.all(
      Array.from({ length: FEATURE_COUNT_SHARDS }, (_, shard) => raw(keys.projectFeatureCount(project, shard))),
    );
    expect(shards.filter((item) => item !== undefined)).toEqual([]);
  });
});

describe('a project stored before its count had shards (ADR 14)', () => {
  async function legacyProject(featureCount: number): Promise<string> {
    const project = await newProject();
    // What the item looked like then: the count on the project item, no shards.
    await db().send(new PutCommand({ TableName: table(), Item: { ...(await raw(keys.project(project))), featureCount } }));
    for (let shard = 0; shard < FEATURE_COUNT_SHARDS; shard += 1) {
      await db().send(new DeleteCommand({ TableName: table(), Key: keys.projectFeatureCount(project, shard) }));
    }
    return project;
  }

  it('lists its stored count, and moves it onto shards at the first feature write', async () => {
    const project = await legacyProject(3);
    expect(await featureCount(project)).toBe(3);

    expect((await createFeature(project)).status).toBe(201);

    expect(await featureCount(project)).toBe(4);
    expect((await raw(keys.project(project)))?.featureCount).toBeUndefined();
    expect((await raw(keys.projectFeatureCount(project, 0)))?.featureCount).toBeGreaterThanOrEqual(3);
    expect((await admin('DELETE', `/api/admin/projects/${project}`)).status).toBe(400);
  });

  it('can be deleted when its stored count is zero', async () => {
    const project = await legacyProject(0);
    expect((await admin('DELETE', `/api/admin/projects/${project}`)).status).toBe(200);
    expect(await raw(keys.project(project))).toBeUndefined();
  });
});

const table = () => inject('dynamodb').tableName;
const db = () => createDocumentClient({ region: 'local', endpoint: engine.endpoint });

async function raw(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }));
  return Item;
}
