import { CfnOutput, Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { INTEGRATIONS_MAX_RECEIVE_COUNT } from '../../lib/integrations/delivery-sqs-queue.js';
import { EVENT_PARTITION_PREFIX } from '../../lib/integrations/dynamo-stream-records.js';
import { KEY } from '../../lib/store/table-design.js';
import { INTEGRATIONS_DELIVERY_TABLE_ACCESS, INTEGRATIONS_STREAM_TABLE_ACCESS } from '../table-access.js';
import { ServiceFunction } from './service-function.js';
import { grantTableAccess } from './table-grants.js';

/** The two stages' settings; the local runtime's queue follows the same receive count. */
export const INTEGRATION_STAGES = {
  stream: { batchSize: 100, windowSeconds: 1, retryAttempts: 10, timeoutSeconds: 60 },
  // Each message is one HTTP request of at most 10 s (lib/integrations/http-poster.ts), one after another.
  delivery: { batchSize: 5, maxConcurrency: 5, timeoutSeconds: 60 },
} as const;

export interface IntegrationsPipelineProps {
  /** Its stream carries new items' images (infra/constructs/toggles-table.ts). */
  table: ITable;
  /** Opens the integrations' sealed parameters. */
  secretKey: ISecret;
  /** Links in messages point at the admin UI here (UNLEASH_URL). */
  unleashUrl: string;
}

/**
 * Integrations delivered by the cloud's own parts (lib/integrations/delivery.ts): the table's
 * stream, filtered to newly written change events, feeds the stream function, which queues one
 * message per integration and event; the delivery function sends each, logs it, and hands a
 * failure back to SQS with backoff. A message received 8 times goes to the dead-letter queue,
 * and so does a stream batch that failed all its retries; the alarm says so. The Amazon
 * EventBridge integration puts events on the bus made here.
 */
export class IntegrationsPipeline extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly bus: events.EventBus;
  readonly streamFunction: ServiceFunction;
  readonly deliveryFunction: ServiceFunction;
  readonly alarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: IntegrationsPipelineProps) {
    super(scope, id);
    const { stream, delivery } = INTEGRATION_STAGES;
    this.deadLetters = new sqs.Queue(this, 'DeadLetters', { retentionPeriod: Duration.days(14), encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true });
    this.queue = new sqs.Queue(this, 'Deliveries', {
      // Lambda's advice: six times the function's timeout, so a batch being worked on is not offered again.
      visibilityTimeout: Duration.seconds(6 * delivery.timeoutSeconds),
      retentionPeriod: Duration.days(4),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: INTEGRATIONS_MAX_RECEIVE_COUNT },
    });
    this.bus = new events.EventBus(this, 'Bus', { description: 'Feature toggles: change events put by the Amazon EventBridge integration' });

    this.streamFunction = new ServiceFunction(this, 'Stream', {
      entry: 'functions/integrations/stream-handler.ts',
      description: 'Feature toggles: integrations, stream stage',
      environment: { TABLE_NAME: props.table.tableName, INTEGRATIONS_QUEUE_URL: this.queue.queueUrl, UNLEASH_URL: props.unleashUrl },
      timeout: Duration.seconds(stream.timeoutSeconds),
    });
    grantTableAccess(this.streamFunction.function, props.table, INTEGRATIONS_STREAM_TABLE_ACCESS, { indexes: false });
    this.queue.grantSendMessages(this.streamFunction.function);
    // The mapping grants the stream reads; the filter keeps every other item's writes from invoking it.
    this.streamFunction.function.addEventSource(new DynamoEventSource(props.table, {
      startingPosition: lambda.StartingPosition.LATEST,
      batchSize: stream.batchSize,
      maxBatchingWindow: Duration.seconds(stream.windowSeconds),
      bisectBatchOnError: true,
      retryAttempts: stream.retryAttempts,
      onFailure: new SqsDlq(this.deadLetters),
      filters: [lambda.FilterCriteria.filter({
        eventName: lambda.FilterRule.isEqual('INSERT'),
        dynamodb: { Keys: { [KEY.partition]: { S: [{ prefix: EVENT_PARTITION_PREFIX }] } } },
      })],
    }));

    Validations.of(this.streamFunction.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'The stream mapping grants dynamodb:ListStreams, which IAM cannot scope to a table; '
        + 'every other stream action is granted on this table stream alone.',
    });

    this.deliveryFunction = new ServiceFunction(this, 'Delivery', {
      entry: 'functions/integrations/delivery-handler.ts',
      description: 'Feature toggles: integrations, delivery stage',
      environment: {
        TABLE_NAME: props.table.tableName,
        INTEGRATIONS_QUEUE_URL: this.queue.queueUrl,
        EVENT_BUS_NAME: this.bus.eventBusName,
        SECRET_KEY_ARN: props.secretKey.secretArn,
        UNLEASH_URL: props.unleashUrl,
      },
      timeout: Duration.seconds(delivery.timeoutSeconds),
    });
    grantTableAccess(this.deliveryFunction.function, props.table, INTEGRATIONS_DELIVERY_TABLE_ACCESS, { indexes: false });
    props.secretKey.grantRead(this.deliveryFunction.function);
    this.bus.grantPutEventsTo(this.deliveryFunction.function);
    // The mapping grants receive, delete and visibility changes (the backoff).
    this.deliveryFunction.function.addEventSource(new SqsEventSource(this.queue, {
      batchSize: delivery.batchSize, maxConcurrency: delivery.maxConcurrency, reportBatchItemFailures: true,
    }));

    this.alarm = this.deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: cloudwatch.Stats.MAXIMUM })
      .createAlarm(this, 'dead-letters', {
        alarmDescription: `Integration deliveries failed ${INTEGRATIONS_MAX_RECEIVE_COUNT} times (or change events could not be queued) and wait in the dead-letter queue: fix the receiver or the integration, then redrive them`,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });

    new CfnOutput(scope, 'EventBusName', { value: this.bus.eventBusName, description: 'The Amazon EventBridge integration puts change events on this bus (source serverless-toggles)' });
  }
}
