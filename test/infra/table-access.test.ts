import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { GROUP_TAG } from '../../infra/constructs/group-functions.js';
import { actionsOf, BOOTSTRAP_TABLE_ACCESS, GROUP_TABLE_ACCESS, INTEGRATIONS_DELIVERY_TABLE_ACCESS, INTEGRATIONS_STREAM_TABLE_ACCESS, SNAPSHOT_TABLE_ACCESS, type TableAccess } from '../../infra/table-access.js';
import { GROUPS } from '../../lib/http/route.js';
import { referencedId, resourcesOf, synthesizeStack, type Resource } from './synth.js';

let template: Template;
let tableId: string;
beforeAll(() => {
  template = synthesizeStack();
  [tableId] = resourcesOf(template, 'AWS::DynamoDB::Table')[0]!;
});

function functionWhere(match: (fn: Resource) => boolean): [string, Resource] {
  const found = resourcesOf(template, 'AWS::Lambda::Function').find(([, fn]) => match(fn));
  if (!found) throw new Error('no such function');
  return found;
}

const groupFunction = (group: string) =>
  functionWhere((fn) => (fn.Properties.Tags as Array<{ Key: string; Value: string }> | undefined)?.some((t) => t.Key === GROUP_TAG && t.Value === group) ?? false);

/** The statements of the function's role that name the table. */
function tableStatements(functionId: string): Array<Record<string, any>> {
  const [, fn] = resourcesOf(template, 'AWS::Lambda::Function').find(([id]) => id === functionId)!;
  const roleId = referencedId(fn.Properties.Role);
  return resourcesOf(template, 'AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles as unknown[]).some((role) => referencedId(role) === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Array<Record<string, any>>)
    .filter((statement) => JSON.stringify(statement.Resource).includes(tableId));
}

const actions = (statements: Array<Record<string, any>>) => statements.flatMap((s) => [s.Action].flat() as string[]).sort();

function expectExactly(functionId: string, access: TableAccess): void {
  const statements = tableStatements(functionId);
  expect(actions(statements)).toEqual([...actionsOf(access)].sort());
  // CDK merges unconditioned statements on the same resource, so only conditioned ones stand alone.
  const conditioned = statements.filter((statement) => statement.Condition !== undefined);
  if (!access.writablePartitions) {
    expect(conditioned).toEqual([]);
    return;
  }
  expect(actions(conditioned)).toEqual([...access.writes].sort());
  for (const statement of conditioned) {
    expect(statement.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...access.writablePartitions] } });
  }
  const unconditioned = statements.filter((statement) => statement.Condition === undefined);
  expect(actions(unconditioned).filter((action) => access.writes.includes(action))).toEqual([]);
}

describe('DynamoDB actions per function', () => {
  it.each(GROUPS)('the %s function may use exactly the actions its routes need', (group) => {
    const [id] = groupFunction(group);

    expectExactly(id, GROUP_TABLE_ACCESS[group]);
  });

  it('no function may Scan, write in batches, read streams (but the integrations\' stream stage) or change the table', () => {
    const [streamStage] = functionWhere((fn) => fn.Properties.Description === 'Feature toggles: integrations, stream stage');
    for (const [id] of resourcesOf(template, 'AWS::Lambda::Function')) {
      const granted = actions(tableStatements(id));
      for (const action of ['dynamodb:Scan', 'dynamodb:BatchWriteItem', 'dynamodb:GetRecords', 'dynamodb:DeleteTable', 'dynamodb:UpdateTable', 'dynamodb:*']) {
        if (id === streamStage && action === 'dynamodb:GetRecords') continue;
        expect(granted, id).not.toContain(action);
      }
    }
  });

  it('the integrations\' stream stage may only Query the table and read its stream; the delivery stage reads and writes delivery logs only', () => {
    const [streamStage] = functionWhere((fn) => fn.Properties.Description === 'Feature toggles: integrations, stream stage');
    const [deliveryStage] = functionWhere((fn) => fn.Properties.Description === 'Feature toggles: integrations, delivery stage');

    expect(actions(tableStatements(streamStage)).filter((action) => !/^dynamodb:(DescribeStream|GetRecords|GetShardIterator|ListStreams)$/.test(action)))
      .toEqual([...actionsOf(INTEGRATIONS_STREAM_TABLE_ACCESS)].sort());
    expectExactly(deliveryStage, INTEGRATIONS_DELIVERY_TABLE_ACCESS);
  });

  it('the bootstrap function reads, seeds, stores tokens and deletes only to remove a replaced one', () => {
    const [id] = functionWhere((fn) => String(fn.Properties.Description).includes('bootstrap admin API token'));

    expectExactly(id, BOOTSTRAP_TABLE_ACCESS);
  });

  it('the snapshot function reads and puts only snapshots', () => {
    const [id] = functionWhere((fn) => String(fn.Properties.Description).includes('snapshot'));

    expectExactly(id, SNAPSHOT_TABLE_ACCESS);
    expect(SNAPSHOT_TABLE_ACCESS.writes).toEqual(['dynamodb:PutItem']);
  });
});
