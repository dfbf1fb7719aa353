import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { INTEGRATION_STAGES } from '../../infra/constructs/integrations-pipeline.js';
import { GROUP_TAG } from '../../infra/constructs/group-functions.js';
import { INTEGRATIONS_MAX_RECEIVE_COUNT } from '../../lib/integrations/delivery-sqs-queue.js';
import { keys } from '../../lib/store/table-design.js';
import { referencedId, resourcesOf, synthesizeStack, type Resource } from './synth.js';

/** Integrations in the template: the table's stream, two stage functions, the queue, its dead letters and alarm, the bus. */
let template: Template;
beforeAll(() => {
  template = synthesizeStack();
});

const one = (type: string, pattern: RegExp): [string, Resource] => {
  const found = resourcesOf(template, type).find(([id]) => pattern.test(id));
  if (!found) throw new Error(`no ${type} ${pattern}`);
  return found;
};
const functionWith = (description: string): [string, Resource] => {
  const found = resourcesOf(template, 'AWS::Lambda::Function').find(([, fn]) => fn.Properties.Description === description);
  if (!found) throw new Error(`no function ${description}`);
  return found;
};
const statementsOf = (functionId: string): Array<Record<string, any>> => {
  const [, fn] = resourcesOf(template, 'AWS::Lambda::Function').find(([id]) => id === functionId)!;
  const roleId = referencedId(fn.Properties.Role);
  return resourcesOf(template, 'AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles as unknown[]).some((role) => referencedId(role) === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Array<Record<string, any>>);
};
const actions = (statements: Array<Record<string, any>>) => statements.flatMap((s) => [s.Action].flat() as string[]);
const on = (statements: Array<Record<string, any>>, resourceId: string) =>
  statements.filter((s) => [s.Resource].flat().some((resource) => referencedId(resource) === resourceId || JSON.stringify(resource).includes(`"${resourceId}"`)));

describe('integrations in the template', () => {
  it("turns on the table's stream with new images, which the stream stage reads filtered to newly written change events", () => {
    const [tableId, table] = resourcesOf(template, 'AWS::DynamoDB::Table')[0]!;
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    const [streamId] = functionWith('Feature toggles: integrations, stream stage');
    const [, mapping] = resourcesOf(template, 'AWS::Lambda::EventSourceMapping').find(([, m]) => referencedId(m.Properties.FunctionName) === streamId)!;

    expect(JSON.stringify(mapping.Properties.EventSourceArn)).toContain(tableId);
    expect(mapping.Properties).toMatchObject({
      StartingPosition: 'LATEST', BatchSize: INTEGRATION_STAGES.stream.batchSize, BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: INTEGRATION_STAGES.stream.retryAttempts,
    });
    expect(JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern)).toEqual({ eventName: ['INSERT'], dynamodb: { Keys: { pk: { S: [{ prefix: 'EVENTS#' }] } } } });
    const [deadId] = one('AWS::SQS::Queue', /^IntegrationsDeadLetters[0-9A-F]+$/);
    expect(referencedId(mapping.Properties.DestinationConfig.OnFailure.Destination)).toBe(deadId);
  });

  it('queues deliveries on an encrypted queue whose messages go to a dead-letter queue kept 14 days after 8 receives', () => {
    const [, queue] = one('AWS::SQS::Queue', /^IntegrationsDeliveries[0-9A-F]+$/);
    const [deadId, dead] = one('AWS::SQS::Queue', /^IntegrationsDeadLetters[0-9A-F]+$/);

    expect(queue.Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [deadId, 'Arn'] }, maxReceiveCount: INTEGRATIONS_MAX_RECEIVE_COUNT });
    expect(queue.Properties.VisibilityTimeout).toBe(6 * INTEGRATION_STAGES.delivery.timeoutSeconds);
    expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    expect(dead.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
  });

  it('maps the queue to the delivery function with partial batch failures, so each message is retried on its own', () => {
    const [queueId] = one('AWS::SQS::Queue', /^IntegrationsDeliveries[0-9A-F]+$/);
    const [deliveryId, delivery] = functionWith('Feature toggles: integrations, delivery stage');
    const [, mapping] = resourcesOf(template, 'AWS::Lambda::EventSourceMapping').find(([, m]) => referencedId(m.Properties.FunctionName) === deliveryId)!;

    expect(referencedId(mapping.Properties.EventSourceArn)).toBe(queueId);
    expect(mapping.Properties).toMatchObject({ BatchSize: INTEGRATION_STAGES.delivery.batchSize, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    expect(delivery.Properties.Timeout).toBe(INTEGRATION_STAGES.delivery.timeoutSeconds);
    expect(referencedId(delivery.Properties.Environment.Variables.INTEGRATIONS_QUEUE_URL)).toBe(queueId);
    expect(actions(on(statementsOf(deliveryId), queueId))).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']));
  });

  it('lets the delivery function put events on its own bus, open the secret key, read integrations and write only delivery logs', () => {
    const [busId] = one('AWS::Events::EventBus', /^IntegrationsBus[0-9A-F]+$/);
    const [deliveryId, delivery] = functionWith('Feature toggles: integrations, delivery stage');
    const [tableId] = resourcesOf(template, 'AWS::DynamoDB::Table')[0]!;
    const [secretId] = resourcesOf(template, 'AWS::SecretsManager::Secret').find(([id]) => id.startsWith('SecretKey'))!;
    const statements = statementsOf(deliveryId);

    expect(referencedId(delivery.Properties.Environment.Variables.EVENT_BUS_NAME)).toBe(busId);
    const puts = statements.filter((s) => actions([s]).includes('events:PutEvents'));
    expect(puts.map((s) => referencedId(s.Resource))).toEqual([busId]);
    expect(actions(on(statements, secretId))).toEqual(expect.arrayContaining(['secretsmanager:GetSecretValue']));
    const writes = on(statements, tableId).filter((s) => actions([s]).some((a) => a === 'dynamodb:PutItem'));
    expect(actions(writes)).toEqual(['dynamodb:PutItem']);
    expect(writes[0]!.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.integrationDeliveryPartitions()] } });
    expect(actions(statements).some((a) => a === 'dynamodb:Scan' || a === 'dynamodb:DeleteItem' || a === 'dynamodb:UpdateItem')).toBe(false);
  });

  it('lets the stream stage only Query the table, read its stream and send to the deliveries queue', () => {
    const [streamId] = functionWith('Feature toggles: integrations, stream stage');
    const [tableId] = resourcesOf(template, 'AWS::DynamoDB::Table')[0]!;
    const [queueId] = one('AWS::SQS::Queue', /^IntegrationsDeliveries[0-9A-F]+$/);
    const statements = statementsOf(streamId);

    const dynamo = actions(statements).filter((a) => a.startsWith('dynamodb:'));
    expect(dynamo.filter((a) => !a.endsWith('Stream') && a !== 'dynamodb:ListStreams' && a !== 'dynamodb:GetRecords' && a !== 'dynamodb:GetShardIterator')).toEqual(['dynamodb:Query']);
    expect(JSON.stringify(on(statements, tableId))).toContain('StreamArn');
    expect(actions(on(statements, queueId))).toContain('sqs:SendMessage');
  });

  it('lets the instance function, which configures integrations, open the secret key and write their partitions', () => {
    const [instanceId, instance] = resourcesOf(template, 'AWS::Lambda::Function').find(([, fn]) =>
      (fn.Properties.Tags as Array<{ Key: string; Value: string }> | undefined)?.some((t) => t.Key === GROUP_TAG && t.Value === 'instance'))!;
    const [secretId] = resourcesOf(template, 'AWS::SecretsManager::Secret').find(([id]) => id.startsWith('SecretKey'))!;

    expect(referencedId(instance.Properties.Environment.Variables.SECRET_KEY_ARN)).toBe(secretId);
    const writes = statementsOf(instanceId).find((s) => actions([s]).includes('dynamodb:PutItem'));
    expect(writes?.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys']).toEqual(expect.arrayContaining([keys.integrations().pk, 'EVENTS#*']));
  });

  it('raises an alarm on the alarm topic as soon as the dead-letter queue holds a message, and names the bus in an output', () => {
    const [topicId] = resourcesOf(template, 'AWS::SNS::Topic')[0]!;
    const [deadId] = one('AWS::SQS::Queue', /^IntegrationsDeadLetters[0-9A-F]+$/);
    const alarm = resourcesOf(template, 'AWS::CloudWatch::Alarm').find(([, a]) =>
      a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(a.Properties.Dimensions).includes(deadId));

    expect(alarm).toBeDefined();
    expect(alarm![1].Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1 });
    expect((alarm![1].Properties.AlarmActions as unknown[]).map(referencedId)).toEqual([topicId]);
    expect(Object.keys(template.toJSON().Outputs)).toContain('EventBusName');
  });
});
