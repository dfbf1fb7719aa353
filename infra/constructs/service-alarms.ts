import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface ServiceAlarmsProps {
  stage: HttpStage;
  /** Every function of the stack, by a short name used in alarm names. */
  functions: Record<string, IFunction>;
  /** Addresses subscribed to the alarm topic (`-c alarmEmail=ops@example.com`); each confirms by mail. */
  emails?: readonly string[];
}

const PERIOD = Duration.minutes(5);
/** A 5xx is a bug or an outage (design §4), so even a small rate is worth a look. */
export const API_5XX_RATE_PERCENT = 1;

/**
 * The alarms an operator needs first. The API's 5xx rate: every handled error is a 4xx by
 * design, so 5xx means a bug, a store outage (503) or a function crash. Lambda errors: only
 * unhandled failures and timeouts count there, as the chain turns every error into a response.
 * Lambda throttles: the account's or a function's concurrency ran out, so requests were
 * refused before any code ran (API Gateway's own route throttling answers 429, a 4xx).
 *
 * Every alarm notifies one SNS topic when it fires and when it recovers. The topic is
 * encrypted with a key of the stack's own: CloudWatch cannot publish to a topic encrypted
 * with the AWS-managed SNS key, so the key policy lets CloudWatch use this key, and the topic
 * policy lets it publish, both only for alarms of this account.
 */
export class ServiceAlarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly topic: sns.Topic;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    this.topic = this.alarmTopic(props.emails ?? []);
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
    const action = new SnsAction(this.topic);
    for (const alarm of this.alarms) {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
    }
  }

  private alarmTopic(emails: readonly string[]): sns.Topic {
    const stack = Stack.of(this);
    const key = new kms.Key(this, 'TopicKey', {
      description: 'Encrypts the alarm notifications topic',
      enableKeyRotation: true,
      // SNS holds a message only while delivering it: nothing this key encrypts outlives the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Only CloudWatch alarms of this account, in this Region, may use the key and the topic.
    const fromOurAlarms = {
      StringEquals: { 'aws:SourceAccount': stack.account },
      ArnLike: { 'aws:SourceArn': stack.formatArn({ service: 'cloudwatch', resource: 'alarm', resourceName: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME }) },
    };
    const cloudWatch = new iam.ServicePrincipal('cloudwatch.amazonaws.com');
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [cloudWatch],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: fromOurAlarms,
      }),
    );
    const topic = new sns.Topic(this, 'Topic', {
      displayName: 'Serverless toggles alarms',
      masterKey: key,
      enforceSSL: true,
    });
    topic.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [cloudWatch],
        actions: ['sns:Publish'],
        resources: [topic.topicArn],
        conditions: fromOurAlarms,
      }),
    );
    for (const email of emails) topic.addSubscription(new EmailSubscription(email));
    return topic;
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

/** `-c alarmEmail=ops@example.com` (several separated by commas) → the addresses; none when not given. */
export function alarmEmailsFromContext(raw: unknown): string[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (typeof raw !== 'string') throw new Error(`Context alarmEmail must be an e-mail address, got ${JSON.stringify(raw)}`);
  const emails = raw.split(',').map((email) => email.trim()).filter((email) => email.length > 0);
  for (const email of emails) {
    if (!/^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/.test(email)) throw new Error(`Context alarmEmail: ${JSON.stringify(email)} is not an e-mail address`);
  }
  return emails;
}
