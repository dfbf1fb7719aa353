import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { revisionClock } from '../../lib/composition/edge.js';
import { featureReadModel } from '../../lib/composition/read-model.js';
import { DynamoMetricsStageMarks, DynamoMetricsStageRecorder, PRUNED_PER_CALL } from '../../lib/features/dynamo-metrics-stages.js';
import { metricsStageMarks } from '../../lib/composition/slices/project-features.js';
import { BATCH_WRITES } from '../../lib/features/lifecycle-service.js';
import { keys } from '../../lib/store/table-design.js';
import { transactWriteDetailed } from '../../lib/store/transact.js';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { isolatedServices } from '../support/client.js';
import { featureSteps } from '../support/features.js';
import { adminToken, servicesOn } from '../support/services.js';

/**
 * The lifecycle stages SDK metrics write move no revision, so the admin read model holds them
 * only from the flag's next change. A project status on a container that holds the read model
 * lays the project's metrics-stage items over it (one Query of small items) instead of reading
 * the project's partition: the stage counts at once, as on a new container, which reads the
 * partition. A project of a table from before those items is read from its partition once, and
 * its items completed from it. A table of its own: the partitions and items counted are this file's.
 */
let services: Services;
let token: string;
let steps: ReturnType<typeof featureSteps>;
const development = { name: 'development', type: 'development' };

beforeAll(async () => {
  services = await isolatedServices();
  token = await adminToken(services);
  steps = featureSteps(apiClient(services), token);
});

/** A container of its own that holds the admin read model, with the projects whose partitions its feature store reads from now on. */
async function warmContainer() {
  const on = servicesOn(services.config);
  await on.composition.once(featureReadModel).everyFeature();
  const listed: string[] = [];
  const listProject = on.featureStore.listProject.bind(on.featureStore);
  on.featureStore.listProject = async (project) => {
    listed.push(project);
    return listProject(project);
  };
  return { on, listed };
}

async function statusOn(on: Services, project: string) {
  const res = await apiClient(on)({ method: 'GET', path: `/api/admin/projects/${project}/status`, token });
  expect(res.status, res.text).toBe(200);
  return res.body as { lifecycleSummary: Record<string, { currentFlags: number }> };
}

const recorder = () => new DynamoMetricsStageRecorder(services.composition.store.db, services.composition.store.tableName);

/** The project's metrics-stage items, by sort key. */
async function itemsOf(project: string) {
  const { Items } = await services.composition.store.db.send(new QueryCommand({
    TableName: services.composition.store.tableName, KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.metricsStagesOf(project) }, ConsistentRead: true,
  }));
  return (Items ?? []).map((item) => item.sk as string).sort();
}

describe('a project status on a container that holds the admin read model', () => {
  it('counts a stage SDK metrics wrote at once, without reading the project partition, as a new container does', async () => {
    const project = await steps.createProject();
    const [moved, kept] = [await steps.createFeature(project), await steps.createFeature(project)];
    const { on, listed } = await warmContainer();
    // The project's first status completes its (empty) items; it is new, so it has none to read.
    await statusOn(on, project);
    listed.length = 0;

    expect(await recorder().recordFromMetrics(moved, development, new Date().toISOString())).toEqual({ stages: ['initial', 'pre-live'] });
    const warm = await statusOn(on, project);
    const cold = await statusOn(servicesOn(services.config), project);

    expect(listed).toEqual([]);
    expect(warm.lifecycleSummary.preLive?.currentFlags).toBe(1);
    expect(warm.lifecycleSummary.initial?.currentFlags).toBe(1);
    expect(warm).toEqual(cold);
    expect(await itemsOf(project)).toEqual(['COMPLETE', `FEATURE#${moved}`]);
    expect(kept).not.toBe(moved);
  });

  it("reads a project of a table from before the metrics-stage items from its partition once, and completes its items from it", async () => {
    const project = await steps.createProject();
    const [moved, other] = [await steps.createFeature(project), await steps.createFeature(project)];
    // A stage as the recorder wrote it before its items existed: the flag and its copy only.
    const stored = await services.featureStore.get(moved);
    const lifecycle = [...(stored?.lifecycle ?? []), { stage: 'pre-live', enteredStageAt: new Date().toISOString() }];
    const update = {
      UpdateExpression: 'SET lifecycle = :lifecycle, version = :next',
      ExpressionAttributeValues: { ':lifecycle': lifecycle, ':next': (stored?.version ?? 0) + 1 },
    };
    const written = await transactWriteDetailed(services.composition.store.db, [
      { Update: { TableName: services.composition.store.tableName, Key: keys.feature(moved), ...update } },
      { Update: { TableName: services.composition.store.tableName, Key: keys.projectFeature(project, moved), ...update } },
    ]);
    expect(written.ok).toBe(true);
    const { on, listed } = await warmContainer();

    const first = await statusOn(on, project);
    const readFirst = [...listed];
    const second = await statusOn(on, project);

    expect(readFirst).toEqual([project]);
    expect(listed).toEqual([project]);
    expect(first.lifecycleSummary.preLive?.currentFlags).toBe(1);
    expect(second).toEqual(first);
    expect(await itemsOf(project)).toEqual(['COMPLETE', `FEATURE#${moved}`]);
    expect(other).not.toBe(moved);
  });

  it('leaves out the item of a flag deleted and made again under the same name, whose versions started over', async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature(project);
    const { on } = await warmContainer();
    await statusOn(on, project);
    expect(await recorder().recordFromMetrics(name, development, new Date().toISOString())).toEqual({ stages: ['initial', 'pre-live'] });
    // As if the flag had changed many times before metrics moved it: its item's version is far ahead.
    await services.composition.store.db.send(new UpdateCommand({
      TableName: services.composition.store.tableName, Key: keys.metricsStage(project, name),
      UpdateExpression: 'SET version = :far', ExpressionAttributeValues: { ':far': 1_000 },
    }));
    const call = apiClient(services);
    expect((await call({ method: 'DELETE', path: `/api/admin/projects/${project}/features/${name}`, token })).status).toBe(202);
    expect((await call({ method: 'DELETE', path: `/api/admin/archive/${name}`, token })).status).toBeLessThan(300);
    await steps.createFeature(project, name);

    const status = await statusOn(on, project);

    expect(status.lifecycleSummary.preLive?.currentFlags).toBe(0);
    expect(status.lifecycleSummary.initial?.currentFlags).toBe(1);
    expect(status).toEqual(await statusOn(servicesOn(services.config), project));
  });

  it("agrees with the project's flag list, its lifecycle filter and the lifecycle counts at once, and moves no SDK revision", async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature(project);
    const { on } = await warmContainer();
    await statusOn(on, project);
    const call = apiClient(on);
    const preLiveCount = async () => (await call({ method: 'GET', path: '/api/admin/lifecycle/count', token })).body.preLive as number;
    const listed = async () => {
      const res = await call({ method: 'GET', path: `/api/admin/search/features?project=IS:${project}&lifecycle=IS:pre-live`, token });
      expect(res.status, res.text).toBe(200);
      return (res.body.features as Array<{ name: string; lifecycle: { stage: string } }>).map((flag) => [flag.name, flag.lifecycle.stage]);
    };
    const countBefore = await preLiveCount();
    const revision = (await on.composition.once(revisionClock).fresh()).revision;

    await recorder().recordFromMetrics(name, development, new Date().toISOString());

    expect((await statusOn(on, project)).lifecycleSummary.preLive?.currentFlags).toBe(1);
    expect(await listed()).toEqual([[name, 'pre-live']]);
    expect(await preLiveCount()).toBe(countBefore + 1);
    expect((await on.composition.once(revisionClock).fresh()).revision).toBe(revision);
  });

  it("deletes a flag's item once a change that moved the revision has passed it, and still counts the stage", async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature(project);
    const { on } = await warmContainer();
    await statusOn(on, project);
    await recorder().recordFromMetrics(name, development, new Date().toISOString());
    expect(await itemsOf(project)).toEqual(['COMPLETE', `FEATURE#${name}`]);

    // A change of the flag moves the revision: the read model now holds the stage itself.
    expect((await steps.turn(project, name, 'development', 'on')).status).toBe(200);
    const status = await statusOn(on, project);

    expect(status.lifecycleSummary.preLive?.currentFlags).toBe(1);
    expect(await itemsOf(project)).toEqual(['COMPLETE']);
    expect(await statusOn(on, project)).toEqual(status);
  });
});

describe('the metrics-stage items of flags that are gone', () => {
  it("deletes a flag's item with the flag, so the project's partition keeps only its flags' items", async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature(project);
    const { on } = await warmContainer();
    await statusOn(on, project);
    await recorder().recordFromMetrics(name, development, new Date().toISOString());
    expect(await itemsOf(project)).toEqual(['COMPLETE', `FEATURE#${name}`]);
    const call = apiClient(services);

    expect((await call({ method: 'DELETE', path: `/api/admin/projects/${project}/features/${name}`, token })).status).toBe(202);
    expect((await call({ method: 'DELETE', path: `/api/admin/archive/${name}`, token })).status).toBeLessThan(300);

    expect(await itemsOf(project)).toEqual(['COMPLETE']);
  });

  it('deletes every item of a largest batch delete, whose transaction has room for only some of them', async () => {
    const project = await steps.createProject();
    const names: string[] = [];
    for (let i = 0; i < BATCH_WRITES; i++) names.push(await steps.createFeature(project, `gone-${String(i).padStart(2, '0')}-${project}`));
    const { on } = await warmContainer();
    await statusOn(on, project);
    for (const name of names) await recorder().recordFromMetrics(name, development, new Date().toISOString());
    expect(await itemsOf(project)).toHaveLength(BATCH_WRITES + 1);
    const call = apiClient(services);

    expect((await call({ method: 'POST', path: `/api/admin/projects/${project}/archive`, token, body: { features: names } })).status).toBe(202);
    const deleted = await call({ method: 'POST', path: `/api/admin/projects/${project}/delete`, token, body: { features: names } });

    expect(deleted.status, deleted.text).toBe(200);
    expect(await itemsOf(project)).toEqual(['COMPLETE']);
  });

  it('deletes the item a flag leaves in the project it moves out of', async () => {
    const [from, to] = [await steps.createProject(), await steps.createProject()];
    const name = await steps.createFeature(from);
    await recorder().recordFromMetrics(name, development, new Date().toISOString());
    expect(await itemsOf(from)).toEqual([`FEATURE#${name}`]);
    const before = await services.featureStore.get(name);
    if (!before) throw new Error(`${name} not stored`);

    const moved = await services.featureStore.commit({
      writes: [{ before, after: { ...before, project: to, version: before.version + 1 } }],
      projectFeatureCounts: { [from]: { delta: -1, applyLimit: false }, [to]: { delta: 1, applyLimit: false } },
    });

    expect(moved).toEqual({ ok: true });
    expect(await itemsOf(from)).toEqual([]);
  });
});

/** The table's client with every request counted, and the most sent at the same time, per command. */
function countingClient() {
  const db = services.composition.store.db;
  const sent = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const most = new Map<string, number>();
  const counting = {
    send: async (command: { constructor: { name: string } }) => {
      const kind = command.constructor.name;
      sent.set(kind, (sent.get(kind) ?? 0) + 1);
      inFlight.set(kind, (inFlight.get(kind) ?? 0) + 1);
      most.set(kind, Math.max(most.get(kind) ?? 0, inFlight.get(kind) ?? 0));
      try {
        return await db.send(command as never);
      } finally {
        inFlight.set(kind, (inFlight.get(kind) ?? 0) - 1);
      }
    },
  } as unknown as DynamoDBDocumentClient;
  return { counting, sent, most };
}

describe('the requests metrics-stage items cost', () => {
  it("reads many projects' items sixteen at a time, each once", async () => {
    const projects = Array.from({ length: 40 }, (_, i) => `many-${i}`);
    const { counting, sent, most } = countingClient();

    const read = await new DynamoMetricsStageMarks(counting, services.composition.store.tableName).ofMany([...projects, ...projects]);

    expect(read).toHaveLength(40);
    expect(sent.get('QueryCommand')).toBe(40);
    expect(most.get('QueryCommand')).toBe(16);
  });

  it(`deletes at most ${PRUNED_PER_CALL} passed items a call, the rest on later calls`, async () => {
    const project = await steps.createProject();
    const createdAt = new Date(0).toISOString();
    const passed = Array.from({ length: PRUNED_PER_CALL + 5 }, (_, i) => ({ name: `passed-${i}`, mark: { project, lifecycle: [], version: 1, createdAt } }));
    for (const { name } of passed) {
      await services.composition.store.db.send(new UpdateCommand({
        TableName: services.composition.store.tableName, Key: keys.metricsStage(project, name),
        UpdateExpression: 'SET lifecycle = :lifecycle, version = :version, createdAt = :createdAt',
        ExpressionAttributeValues: { ':lifecycle': [], ':version': 1, ':createdAt': createdAt },
      }));
    }
    const { counting, sent } = countingClient();
    const marks = new DynamoMetricsStageMarks(counting, services.composition.store.tableName);

    await marks.prune(passed);
    const left = await itemsOf(project);
    await marks.prune(passed.filter(({ name }) => left.includes(`FEATURE#${name}`)));

    expect(left).toHaveLength(5);
    expect(sent.get('DeleteCommand')).toBe(PRUNED_PER_CALL + 5);
    expect(await itemsOf(project)).toEqual([]);
  });
});

describe('a project status whose metrics-stage writes fail', () => {
  const refused = async () => {
    throw new Error('ProvisionedThroughputExceededException: the write was throttled');
  };

  it('answers from what it read when deleting passed items fails', async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature(project);
    const { on } = await warmContainer();
    await statusOn(on, project);
    await recorder().recordFromMetrics(name, development, new Date().toISOString());
    expect((await steps.turn(project, name, 'development', 'on')).status).toBe(200);
    const marks = on.composition.once(metricsStageMarks);
    const prune = marks.prune.bind(marks);
    marks.prune = refused;

    const status = await statusOn(on, project);
    const count = await apiClient(on)({ method: 'GET', path: '/api/admin/lifecycle/count', token });

    expect(status.lifecycleSummary.preLive?.currentFlags).toBe(1);
    expect(count.status, count.text).toBe(200);
    expect(await itemsOf(project)).toEqual(['COMPLETE', `FEATURE#${name}`]);
    marks.prune = prune;
    expect(await statusOn(on, project)).toEqual(status);
    expect(await itemsOf(project)).toEqual(['COMPLETE']);
  });

  it('answers from the partition it read when completing the items fails, and completes them on a later read', async () => {
    const project = await steps.createProject();
    await steps.createFeature(project);
    const { on, listed } = await warmContainer();
    const marks = on.composition.once(metricsStageMarks);
    const complete = marks.complete.bind(marks);
    marks.complete = refused;

    const first = await statusOn(on, project);

    expect(first.lifecycleSummary.initial?.currentFlags).toBe(1);
    expect(await itemsOf(project)).toEqual([]);
    marks.complete = complete;
    expect(await statusOn(on, project)).toEqual(first);
    expect(await itemsOf(project)).toEqual(['COMPLETE']);
    expect(listed).toEqual([project, project]);
  });
});
