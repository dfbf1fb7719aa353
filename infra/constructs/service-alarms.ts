import { Duration } from 'aws-cdk-lib';
import type { HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export interface ServiceAlarmsProps {
  stage: HttpStage;
  /** Every function of the stack, by a short name used in alarm names. */
  functions: Record<string, IFunction>;
}

const PERIOD = Duration.minutes(5);
/** A 5xx is a bug or an outage (design §4), so even a small rate is worth a look. */
export const API_5XX_RATE_PERCENT = 1;

/**
 * The alarms an operator needs first. The API's 5xx rate: every handled error is a 4xx by
 * design, so 5xx means a bug, a store outage (503) or a function crash. Lambda errors: only
 * unhandled failures and timeouts count there, as the chain turns every error into a response.
 * Lambda throttles: the account's or a function's concurrency ran out, so requests were
 * refused before any code ran (API Gateway's own stage throttling answers 429, a 4xx).
 * No notification target is assumed; subscribe a topic to the alarms as your operations need.
 */
export class ServiceAlarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    this.alarms.push(this.api5xxRate(props.stage));
    for (const [name, fn] of Object.entries(props.functions)) {
      this.alarms.push(
        fn.metricErrors({ period: PERIOD, statistic: cloudwatch.Stats.SUM }).createAlarm(this, `${name}-errors`, {
          alarmDescription: `The ${name} function failed without answering (crash or timeout)`,
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
        fn.metricThrottles({ period: PERIOD, statistic: cloudwatch.Stats.SUM }).createAlarm(this, `${name}-throttles`, {
          alarmDescription: `Invocations of the ${name} function were throttled (concurrency exhausted)`,
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    }
  }

  private api5xxRate(stage: HttpStage): cloudwatch.Alarm {
    const rate = new cloudwatch.MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: stage.metricServerError({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
        requests: stage.metricCount({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
      },
      period: PERIOD,
      label: 'API 5xx rate (%)',
    });
    return rate.createAlarm(this, 'api-5xx-rate', {
      alarmDescription: `More than ${API_5XX_RATE_PERCENT}% of API requests answered 5xx in two of three 5-minute periods`,
      threshold: API_5XX_RATE_PERCENT,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}
