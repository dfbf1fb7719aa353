import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { METRICS_MAX_RECEIVE_COUNT, METRICS_STAGES } from '../../infra/constructs/metrics-pipeline.js';
import { GROUP_TAG } from '../../infra/constructs/group-functions.js';
import { keys } from '../../lib/store/table-design.js';
import { referencedId, resourcesOf, synthesizeStack, type Resource } from './synth.js';

/** ADR 15 in the template: two queues with dead-letter queues, two stage functions, their mappings, grants and alarms. */
let template: Template;
beforeAll(() => {
  template = synthesizeStack();
});

const queue = (pattern: RegExp): [string, Resource] => {
  const found = resourcesOf(template, 'AWS::SQS::Queue').find(([id]) => pattern.test(id));
  if (!found) throw new Error(`no queue ${pattern}`);
  return found;
};
const functionWith = (description: string): [string, Resource] =>
  resourcesOf(template, 'AWS::Lambda::Function').find(([, fn]) => fn.Properties.Description === description)!;
const statementsOf = (functionId: string): Array<Record<string, any>> => {
  const [, fn] = resourcesOf(template, 'AWS::Lambda::Function').find(([id]) => id === functionId)!;
  const roleId = referencedId(fn.Properties.Role);
  return resourcesOf(template, 'AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles as unknown[]).some((role) => referencedId(role) === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Array<Record<string, any>>);
};
const actions = (statements: Array<Record<string, any>>) => statements.flatMap((s) => [s.Action].flat() as string[]);
const resourcesIn = (statements: Array<Record<string, any>>) => new Set(statements.flatMap((s) => [s.Resource].flat().map(referencedId)));

describe('the SDK metrics pipeline (ADR 15)', () => {
  it('sends a batch that failed 5 times to a dead-letter queue kept 14 days, on encrypted queues that refuse plain HTTP', () => {
    for (const [name, dlq] of [['MetricsReports', 'MetricsReportsDeadLetters'], ['MetricsSums', 'MetricsSumsDeadLetters']] as const) {
      const [, main] = queue(new RegExp(`^${name}[0-9A-F]+$`));
      const [deadId, dead] = queue(new RegExp(`^${dlq}[0-9A-F]+$`));
      expect(main.Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [deadId, 'Arn'] }, maxReceiveCount: METRICS_MAX_RECEIVE_COUNT });
      expect(dead.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
      expect(main.Properties.SqsManagedSseEnabled).toBe(true);
    }
    expect(resourcesOf(template, 'AWS::SQS::QueuePolicy').filter(([id]) => id.startsWith('Metrics'))).toHaveLength(4);
  });

  it('maps each queue to its stage with the batch size, window and concurrency of the ADR, and a visibility timeout past a retry', () => {
    const mappings = resourcesOf(template, 'AWS::Lambda::EventSourceMapping');
    for (const [stage, name, description] of [
      ['sum', 'MetricsReports', 'Feature toggles: SDK metrics, sum stage'],
      ['store', 'MetricsSums', 'Feature toggles: SDK metrics, store stage'],
    ] as const) {
      const settings = METRICS_STAGES[stage];
      const [queueId, q] = queue(new RegExp(`^${name}[0-9A-F]+$`));
      const [functionId, fn] = functionWith(description);
      const [, mapping] = mappings.find(([, m]) => referencedId(m.Properties.FunctionName) === functionId)!;
      expect(referencedId(mapping.Properties.EventSourceArn)).toBe(queueId);
      expect(mapping.Properties).toMatchObject({
        BatchSize: settings.batchSize, MaximumBatchingWindowInSeconds: settings.windowSeconds,
        ScalingConfig: { MaximumConcurrency: settings.maxConcurrency },
      });
      expect(fn.Properties.Timeout).toBe(settings.timeoutSeconds);
      expect(q.Properties.VisibilityTimeout).toBe(6 * settings.timeoutSeconds + settings.windowSeconds);
    }
  });

  it('lets the store stage only update usage items and send to the sums queue, and the sum stage touch no table', () => {
    const [storeId] = functionWith('Feature toggles: SDK metrics, store stage');
    const [sumId] = functionWith('Feature toggles: SDK metrics, sum stage');
    const [tableId] = resourcesOf(template, 'AWS::DynamoDB::Table')[0]!;
    const [sumsId] = queue(/^MetricsSums[0-9A-F]+$/);

    const store = statementsOf(storeId);
    const tableStatements = store.filter((s) => [s.Resource].flat().map(referencedId).includes(tableId));
    // Reads: a flag and the environments, for the lifecycle stages metrics move, and which reported
    // names are flags (keys only, for the unknown flags). Writes: updates only, to usage items, to
    // flags (and their project copies and metrics-stage items) and to the unknown flags alone.
    expect([...actions(tableStatements)].sort()).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    const updates = tableStatements.filter((statement) => actions([statement]).includes('dynamodb:UpdateItem'));
    expect(updates).toHaveLength(1);
    expect(actions(updates)).toEqual(['dynamodb:UpdateItem']);
    expect(updates[0]!.Condition).toEqual({
      'ForAllValues:StringLike': {
        'dynamodb:LeadingKeys': [keys.dailyMetrics('*').pk, keys.lastSeenAll().pk, keys.feature('*').pk, keys.projectFeature('*', '*').pk,
          keys.unknownFlags().pk, keys.metricsStagePartitions()],
      },
    });
    expect(actions(store.filter((s) => [s.Resource].flat().map(referencedId).includes(sumsId)))).toEqual(
      expect.arrayContaining(['sqs:SendMessage', 'sqs:ReceiveMessage', 'sqs:DeleteMessage']),
    );
    const sum = statementsOf(sumId);
    expect(resourcesIn(sum).has(tableId)).toBe(false);
    expect(actions(sum).some((a) => a.startsWith('dynamodb:'))).toBe(false);
  });

  it('gives the client function the reports queue to send to, and nothing else of the pipeline', () => {
    const [reportsId] = queue(/^MetricsReports[0-9A-F]+$/);
    const [clientId, client] = resourcesOf(template, 'AWS::Lambda::Function').find(([, fn]) =>
      (fn.Properties.Tags as Array<{ Key: string; Value: string }> | undefined)?.some((t) => t.Key === GROUP_TAG && t.Value === 'client'))!;

    expect(referencedId(client.Properties.Environment.Variables.METRICS_QUEUE_URL)).toBe(reportsId);
    const onQueue = statementsOf(clientId).filter((s) => [s.Resource].flat().map(referencedId).includes(reportsId));
    expect(actions(onQueue).filter((a) => a.startsWith('sqs:')).sort()).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
  });

  it('raises an alarm on the alarm topic as soon as a dead-letter queue holds a message', () => {
    const [topicId] = resourcesOf(template, 'AWS::SNS::Topic')[0]!;
    for (const pattern of [/^MetricsReportsDeadLetters[0-9A-F]+$/, /^MetricsSumsDeadLetters[0-9A-F]+$/]) {
      const [dlqId] = queue(pattern);
      const alarm = resourcesOf(template, 'AWS::CloudWatch::Alarm').find(([, a]) =>
        a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible'
        && (a.Properties.Dimensions as Array<{ Value: unknown }>).some((d) => JSON.stringify(d.Value).includes(dlqId)));
      expect(alarm, String(pattern)).toBeDefined();
      expect(alarm![1].Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1 });
      expect((alarm![1].Properties.AlarmActions as unknown[]).map(referencedId)).toEqual([topicId]);
    }
  });
});
