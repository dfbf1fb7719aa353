import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_5XX_RATE_PERCENT } from '../../infra/constructs/service-alarms.js';
import { STAGE_THROTTLE } from '../../infra/constructs/toggles-api.js';
import { referencedId, resourcesOf, synthesizeStack } from './synth.js';

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
    const functionIds = resourcesOf(template, 'AWS::Lambda::Function').map(([id]) => id);
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

  it('come with the stage throttling that caps what a runaway client can cost', () => {
    const [, stage] = resourcesOf(template, 'AWS::ApiGatewayV2::Stage')[0]!;

    expect(stage.Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: STAGE_THROTTLE.rateLimit,
      ThrottlingBurstLimit: STAGE_THROTTLE.burstLimit,
    });
  });
});
