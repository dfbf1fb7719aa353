import { BatchWriteCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { DynamoRevisionStore } from '../../lib/store/revision-store.js';
import { keys } from '../../lib/store/table-design.js';
import { apiClient, resendWhileUnavailable } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { projectSteps } from '../support/projects.js';
import { adminToken, servicesOn, unique } from '../support/services.js';

/** Features in the large project: with their long descriptions, its partition of copies is over 1 MB (two pages or more). */
const LARGE_PROJECT = 400;
const DESCRIPTION = 'x'.repeat(3_000);

/**
 * The flag page asks whether any feature of its project depends on another, and the dependency
 * dialog which features may be a parent: both read one project's features, which a project of a
 * thousand flags holds in megabytes. Once the process holds the admin read model, they cost a
 * revision check instead of the project's whole partition.
 */
describe("a project's dependency reads", () => {
  it('read the project partition page by page only until the process holds the read model, then a revision check, and see every write', async () => {
    const { endpoint } = inject('dynamodb');
    const config = loadConfig({ TABLE_NAME: unique('deps'), DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'local' });
    await prepareLocalTable({ region: 'local', endpoint }, config.tableName);
    const services = servicesOn(config);
    await services.firstStart.ensure();
    const token = await adminToken(services);
    const call = apiClient(services);
    const steps = featureSteps(call, token);
    const project = await projectSteps(call, token).createProject();
    const [parent, child] = [await steps.createFeature(project, unique('parent')), await steps.createFeature(project, unique('child'))];
    const copies = await copiesOf(services.composition.store.db, config.tableName, parent, project);
    const get = async (path: string) => {
      const before = services.dynamoRequests.snapshot();
      const res = await call({ method: 'GET', path, token });
      expect(res.status).toBe(200);
      return { body: res.body, requests: countsSince(before, services.dynamoRequests.snapshot()).byOperation };
    };
    const dependencies = `/api/admin/projects/${project}/dependencies`;
    const parents = `/api/admin/projects/${project}/features/${child}/parents`;

    const cold = await get(dependencies);
    await get('/api/admin/projects'); // every project's health: this process now holds the read model
    // The first read after loading it may still catch it up with the revision it was loaded at.
    await get(dependencies);
    const warm = await get(dependencies);
    const options = await get(parents);
    const dependent = copies[0] as string;
    const added = await resendWhileUnavailable(() => call({ method: 'POST', path: `/api/admin/projects/${project}/features/${dependent}/dependencies`, token, body: { feature: parent } }));
    expect(added.status).toBe(200);
    const firstAfterWrite = await get(dependencies);
    const afterWrite = await get(dependencies);
    const optionsAfterWrite = await get(parents);

    expect(cold.body).toBe(false);
    expect(cold.requests.Query).toBeGreaterThanOrEqual(2);
    expect(warm).toEqual({ body: false, requests: { GetItem: 1, Query: 1 } });
    expect(options.body).toHaveLength(LARGE_PROJECT + 1);
    expect(options.body).toContain(parent);
    expect(firstAfterWrite.body).toBe(true);
    expect(afterWrite).toEqual({ body: true, requests: { GetItem: 1, Query: 1 } });
    // The copy that now has a parent may no longer be one.
    expect(optionsAfterWrite.body).toHaveLength(LARGE_PROJECT);
    expect(optionsAfterWrite.body).not.toContain(dependent);
  });
});

/**
 * LARGE_PROJECT copies of `template` written straight to the table (the feature and its project
 * copy, as the store writes them), then one revision change that names everything, as a bulk load must.
 */
async function copiesOf(db: DynamoDBDocumentClient, tableName: string, template: string, project: string) {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.feature(template), ConsistentRead: true }));
  const names = Array.from({ length: LARGE_PROJECT }, (_, i) => `${template}-copy-${String(i).padStart(4, '0')}`);
  for (let start = 0; start < names.length; start += 12) {
    let pending: unknown[] | undefined = names.slice(start, start + 12).flatMap((name) => {
      const copy = { ...Item, name, description: DESCRIPTION };
      return [
        { PutRequest: { Item: { ...copy, ...keys.feature(name) } } },
        { PutRequest: { Item: { ...copy, ...keys.projectFeature(project, name) } } },
      ];
    });
    while (pending && pending.length > 0) {
      const answer: { UnprocessedItems?: Record<string, unknown[]> } = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }));
      pending = answer.UnprocessedItems?.[tableName];
    }
  }
  await new DynamoRevisionStore(db, tableName).commit([], { everything: true });
  return names;
}
