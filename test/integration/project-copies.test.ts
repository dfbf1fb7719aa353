import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';

import { PROJECT_COPIES_MIGRATION } from '../../lib/features/dynamo-project-copies.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { keys } from '../../lib/store/table-design.js';
import { storedFeature } from '../support/seed-features.js';
import { testConfig, unique, servicesOn } from '../support/services.js';

// Each feature's copy in its project's partition (ADR 17): kept by every commit, and made by a
// migration on tables from before it.
async function freshTable() {
  const tableName = unique('copies');
  const config = testConfig({ TABLE_NAME: tableName });
  await prepareLocalTable({ region: 'local', endpoint: config.dynamodbEndpoint as string }, tableName);
  const services = servicesOn(config);
  await services.firstStart.ensure();
  await services.projects.create({ id: 'second', name: 'Second' }, 'test');
  const db = createDocumentClient({ region: 'local', endpoint: config.dynamodbEndpoint as string });
  const copiesOf = async (project: string) => {
    const { pk, skPrefix } = keys.projectFeatures(project);
    const { Items = [] } = await db.send(new QueryCommand({
      TableName: tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix }, ConsistentRead: true,
    }));
    return Items.map((item) => `${item.name as string}@${item.version as number}`).sort();
  };
  return { tableName, config, services, db, copiesOf };
}

describe('a feature\'s copy in its project', () => {
  it('is written, moved on and deleted by the same commits as the feature', async () => {
    const { services, copiesOf, db } = await freshTable();
    const { lifecycle } = services.features;
    await lifecycle.create('second', { name: 'kept' }, 'test');
    await lifecycle.create('second', { name: 'gone' }, 'test');
    await lifecycle.update('second', 'kept', { description: 'changed' }, 'test');
    await lifecycle.archive('second', ['gone'], 'test');
    await lifecycle.deleteArchived('gone', 'test');

    expect(await copiesOf('second')).toEqual(['kept@2']);
    expect((await services.featureStore.listProject('second')).map((f) => [f.name, f.description])).toEqual([['kept', 'changed']]);
    db.destroy();
  });
});

describe('the migration of a table from before the copies', () => {
  it('reads every feature until it has run, then makes each copy once and removes strays', async () => {
    const { tableName, config, db, copiesOf } = await freshTable();
    // The table as code from before ADR 17 left it: features without copies, no migration record,
    // and (from an interrupted run) a stale copy and a copy of a feature since deleted.
    await db.send(new DeleteCommand({ TableName: tableName, Key: keys.migration(PROJECT_COPIES_MIGRATION) }));
    const old = [storedFeature('a', 'default'), storedFeature('b', 'second', { version: 3 }), storedFeature('c', 'second')];
    for (const feature of old) await db.send(new PutCommand({ TableName: tableName, Item: { ...feature, ...keys.feature(feature.name) } }));
    await db.send(new PutCommand({ TableName: tableName, Item: { ...storedFeature('b', 'second', { version: 2 }), ...keys.projectFeature('second', 'b') } }));
    await db.send(new PutCommand({ TableName: tableName, Item: { ...storedFeature('deleted', 'second'), ...keys.projectFeature('second', 'deleted') } }));

    // A process that starts on the old table answers from the features themselves.
    const services = servicesOn(config);
    expect((await services.featureStore.listProject('second')).map((f) => f.name).sort()).toEqual(['b', 'c']);

    expect(await services.projectCopies.make({ settleMs: 0 })).toEqual({ state: 'done', fixed: 4 });
    expect(await copiesOf('default')).toEqual(['a@1']);
    expect(await copiesOf('second')).toEqual(['b@3', 'c@1']);
    expect((await db.send(new GetCommand({ TableName: tableName, Key: keys.migration(PROJECT_COPIES_MIGRATION), ConsistentRead: true }))).Item).toBeDefined();

    // Another process (a second start, the next deployment) finds the record and does nothing.
    const again = servicesOn(config);
    expect(await again.projectCopies.make({ settleMs: 0 })).toEqual({ state: 'done', fixed: 0 });
    expect((await again.featureStore.listProject('second')).map((f) => f.name).sort()).toEqual(['b', 'c']);
    db.destroy();
  });

  it('repairs a feature that needs two repairs (its copy, and a stray copy in its old project) over two passes', async () => {
    const { tableName, config, db, copiesOf } = await freshTable();
    await db.send(new DeleteCommand({ TableName: tableName, Key: keys.migration(PROJECT_COPIES_MIGRATION) }));
    await db.send(new PutCommand({ TableName: tableName, Item: { ...storedFeature('moved', 'second'), ...keys.feature('moved') } }));
    await db.send(new PutCommand({ TableName: tableName, Item: { ...storedFeature('moved', 'default'), ...keys.projectFeature('default', 'moved') } }));

    // One transaction checking the feature's item twice would be refused by DynamoDB.
    expect(await servicesOn(config).projectCopies.make({ settleMs: 0 })).toEqual({ state: 'done', fixed: 2 });
    expect(await copiesOf('second')).toEqual(['moved@1']);
    expect(await copiesOf('default')).toEqual([]);
    db.destroy();
  });

  it('stops at its deadline without recording itself, and the next run finishes', async () => {
    const { tableName, config, db, copiesOf } = await freshTable();
    await db.send(new DeleteCommand({ TableName: tableName, Key: keys.migration(PROJECT_COPIES_MIGRATION) }));
    await db.send(new PutCommand({ TableName: tableName, Item: { ...storedFeature('late', 'second'), ...keys.feature('late') } }));
    const services = servicesOn(config);

    expect(await services.projectCopies.make({ settleMs: 0, deadline: 0 })).toEqual({ state: 'unfinished', fixed: 0, why: 'out of time' });
    expect(await services.projectCopies.ready()).toBe(false);
    expect(await services.projectCopies.make({ settleMs: 0 })).toEqual({ state: 'done', fixed: 1 });
    expect(await copiesOf('second')).toEqual(['late@1']);
    db.destroy();
  });
});
