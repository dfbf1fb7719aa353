import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_5XX_RATE_PERCENT, alarmEmailsFromContext } from '../../infra/constructs/service-alarms.js';
import { DEFAULT_THROTTLING } from '../../infra/throttling.js';
import { referencedId, resourcesOf, serviceFunctions, synthesizeStack } from './synth.js';

let template: Template;
beforeAll(() => {
  template = synthesizeStack();
});

const alarms = () => resourcesOf(template, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);

describe('alarms', () => {
  it('watch the API 5xx rate over the default stage, as a share of all requests', () => {
    const rate = alarms().filter((alarm) => JSON.stringify(alarm.Metrics ?? []).includes('5xx'));

    expect(rate).toHaveLength(1);
    const alarm = rate[0]!;
    expect(alarm.Threshold).toBe(API_5XX_RATE_PERCENT);
    expect(alarm.ComparisonOperator).toBe('GreaterThanThreshold');
    expect(alarm.TreatMissingData).toBe('notBreaching');
    const expression = alarm.Metrics.find((metric: { Expression?: string }) => metric.Expression);
    expect(expression.Expression).toBe('IF(requests > 0, 100 * errors / requests, 0)');
    const names = alarm.Metrics.filter((metric: { MetricStat?: unknown }) => metric.MetricStat).map((metric: any) => metric.MetricStat.Metric.MetricName).sort();
    expect(names).toEqual(['5xx', 'Count']);
    const dimensions = alarm.Metrics.find((metric: any) => metric.MetricStat).MetricStat.Metric.Dimensions.map((d: { Name: string }) => d.Name).sort();
    expect(dimensions).toEqual(['ApiId', 'Stage']);
  });

  it('watch errors and throttles of every function of the stack', () => {
    const functionIds = serviceFunctions(template).map(([id]) => id);
    const watched = (metricName: string) =>
      alarms()
        .filter((alarm) => alarm.Namespace === 'AWS/Lambda' && alarm.MetricName === metricName)
        .map((alarm) => referencedId(alarm.Dimensions.find((d: { Name: string }) => d.Name === 'FunctionName').Value));

    expect(watched('Errors').sort()).toEqual([...functionIds].sort());
    expect(watched('Throttles').sort()).toEqual([...functionIds].sort());
    for (const alarm of alarms().filter((candidate) => candidate.Namespace === 'AWS/Lambda')) {
      expect(alarm.Threshold).toBe(1);
      expect(alarm.ComparisonOperator).toBe('GreaterThanOrEqualToThreshold');
    }
  });

  it('come with the route throttling that caps what a runaway client can cost', () => {
    const [, stage] = resourcesOf(template, 'AWS::ApiGatewayV2::Stage')[0]!;

    expect(stage.Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: DEFAULT_THROTTLING.admin.rateLimit,
      ThrottlingBurstLimit: DEFAULT_THROTTLING.admin.burstLimit,
    });
  });
});

const topics = (t: Template) => resourcesOf(t, 'AWS::SNS::Topic');

describe('alarm notifications', () => {
  it('go to one topic from every alarm, when it fires and when it recovers', () => {
    expect(topics(template)).toHaveLength(1);
    const [topicId] = topics(template)[0]!;
    const all = alarms();
    expect(all.length).toBeGreaterThanOrEqual(21);
    for (const alarm of all) {
      expect(alarm.ActionsEnabled ?? true).toBe(true);
      expect((alarm.AlarmActions ?? []).map(referencedId)).toEqual([topicId]);
      expect((alarm.OKActions ?? []).map(referencedId)).toEqual([topicId]);
    }
  });

  it("are encrypted with the stack's own rotating key, which CloudWatch may use for this account's alarms only", () => {
    const [, topic] = topics(template)[0]!;
    const keyId = referencedId(topic.Properties.KmsMasterKeyId);
    const [, key] = resourcesOf(template, 'AWS::KMS::Key').find(([id]) => id === keyId)!;
    expect(key.Properties.EnableKeyRotation).toBe(true);
    // CloudWatch cannot publish to a topic under the AWS-managed SNS key; it needs these two on a key of ours.
    const forCloudWatch = (key.Properties.KeyPolicy.Statement as Array<Record<string, any>>).filter(
      (statement) => statement.Principal?.Service === 'cloudwatch.amazonaws.com',
    );
    expect(forCloudWatch).toHaveLength(1);
    expect([forCloudWatch[0]!.Action].flat().sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey*']);
    expect(forCloudWatch[0]!.Condition.StringEquals['aws:SourceAccount']).toEqual({ Ref: 'AWS::AccountId' });
    expect(JSON.stringify(forCloudWatch[0]!.Condition.ArnLike['aws:SourceArn'])).toContain(':alarm:*');
  });

  it('may be published by CloudWatch alarms of this account, over TLS only', () => {
    const [topicId] = topics(template)[0]!;
    const policies = resourcesOf(template, 'AWS::SNS::TopicPolicy').filter(([, policy]) =>
      (policy.Properties.Topics as unknown[]).some((topic) => referencedId(topic) === topicId),
    );
    expect(policies).toHaveLength(1);
    const statements = policies[0]![1].Properties.PolicyDocument.Statement as Array<Record<string, any>>;
    const publish = statements.find((statement) => statement.Effect === 'Allow' && statement.Principal?.Service === 'cloudwatch.amazonaws.com');
    expect(publish?.Action).toBe('sns:Publish');
    expect(publish?.Condition.StringEquals['aws:SourceAccount']).toEqual({ Ref: 'AWS::AccountId' });
    expect(statements.some((statement) => statement.Effect === 'Deny' && statement.Condition?.Bool?.['aws:SecureTransport'] === 'false')).toBe(true);
  });

  it('name the topic in an output', () => {
    const [topicId] = topics(template)[0]!;
    expect(referencedId(template.toJSON().Outputs.AlarmTopicArn.Value)).toBe(topicId);
  });

  it('subscribe no one unless an address is given as context, then each address given', () => {
    expect(resourcesOf(template, 'AWS::SNS::Subscription')).toEqual([]);

    const withEmail = synthesizeStack({ alarmEmail: 'ops@example.com, oncall@example.org' });
    const [topicId] = topics(withEmail)[0]!;
    const subscriptions = resourcesOf(withEmail, 'AWS::SNS::Subscription').map(([, subscription]) => subscription.Properties);
    expect(subscriptions.map((subscription) => subscription.Endpoint).sort()).toEqual(['oncall@example.org', 'ops@example.com']);
    for (const subscription of subscriptions) {
      expect(subscription.Protocol).toBe('email');
      expect(referencedId(subscription.TopicArn)).toBe(topicId);
    }
  });

  it('refuse an alarmEmail that is not an address', () => {
    expect(alarmEmailsFromContext(undefined)).toEqual([]);
    expect(alarmEmailsFromContext('')).toEqual([]);
    expect(() => alarmEmailsFromContext('ops')).toThrow(/alarmEmail/);
    expect(() => alarmEmailsFromContext(42)).toThrow(/alarmEmail/);
  });
});
