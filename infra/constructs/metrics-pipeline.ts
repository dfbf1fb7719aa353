import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_TABLE_ACCESS } from '../table-access.js';
import { ServiceFunction } from './service-function.js';
import { grantTableAccess } from './table-grants.js';

/** A failed batch is received this many times before its messages go to the dead-letter queue. */
export const METRICS_MAX_RECEIVE_COUNT = 5;

/** The event source mappings' settings (ADR 15); the local queues follow the same limits. */
export const METRICS_STAGES = {
  sum: { batchSize: 10_000, windowSeconds: 30, maxConcurrency: 10, timeoutSeconds: 60 },
  store: { batchSize: 10_000, windowSeconds: 300, maxConcurrency: 2, timeoutSeconds: 120 },
} as const;

export interface MetricsPipelineProps {
  table: ITable;
  /** The functions that send each SDK report to the reports queue: the client and frontend functions. */
  reporters: Array<IFunction & { addEnvironment(key: string, value: string): unknown }>;
}

/**
 * SDK metrics summed in two queued stages before DynamoDB (ADR 15): the client function sends
 * each report to `reports`; the sum function folds each batch into one message on `sums`; the
 * store function writes one counter update per (feature, environment, hour) and last-seen once
 * per interval, and sends back to `sums` what it could not write. A batch that keeps failing goes
 * to its queue's dead-letter queue after 5 receives; the alarms say so.
 */
export class MetricsPipeline extends Construct {
  readonly reports: sqs.Queue;
  readonly sums: sqs.Queue;
  readonly deadLetters: { reports: sqs.Queue; sums: sqs.Queue };
  readonly sumFunction: ServiceFunction;
  readonly storeFunction: ServiceFunction;
  /** One alarm per dead-letter queue; the stack sends them to its alarm topic. */
  readonly alarms: cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: MetricsPipelineProps) {
    super(scope, id);
    const { sum, store } = METRICS_STAGES;
    this.deadLetters = { reports: this.deadLetterQueue('ReportsDeadLetters'), sums: this.deadLetterQueue('SumsDeadLetters') };
    this.reports = this.queue('Reports', this.deadLetters.reports, sum);
    this.sums = this.queue('Sums', this.deadLetters.sums, store);

    const environment = { TABLE_NAME: props.table.tableName, METRICS_SUMS_QUEUE_URL: this.sums.queueUrl };
    this.sumFunction = new ServiceFunction(this, 'Sum', {
      entry: 'functions/metrics/sum-handler.ts',
      description: 'Feature toggles: SDK metrics, sum stage',
      environment,
      timeout: Duration.seconds(sum.timeoutSeconds),
    });
    this.storeFunction = new ServiceFunction(this, 'Store', {
      entry: 'functions/metrics/store-handler.ts',
      description: 'Feature toggles: SDK metrics, store stage',
      environment,
      timeout: Duration.seconds(store.timeoutSeconds),
    });
    // The sum stage only sends sums; the store stage writes usage items and sends back what it could not write.
    this.sums.grantSendMessages(this.sumFunction.function);
    this.sums.grantSendMessages(this.storeFunction.function);
    grantTableAccess(this.storeFunction.function, props.table, METRICS_TABLE_ACCESS, { indexes: false });
    // Each event source mapping grants its function what consuming needs (receive, delete, change visibility).
    this.sumFunction.function.addEventSource(new SqsEventSource(this.reports, {
      batchSize: sum.batchSize, maxBatchingWindow: Duration.seconds(sum.windowSeconds), maxConcurrency: sum.maxConcurrency,
    }));
    this.storeFunction.function.addEventSource(new SqsEventSource(this.sums, {
      batchSize: store.batchSize, maxBatchingWindow: Duration.seconds(store.windowSeconds), maxConcurrency: store.maxConcurrency,
    }));

    for (const reporter of props.reporters) {
      reporter.addEnvironment('METRICS_QUEUE_URL', this.reports.queueUrl);
      this.reports.grantSendMessages(reporter);
    }

    this.alarms = Object.entries(this.deadLetters).map(([name, queue]) =>
      queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: cloudwatch.Stats.MAXIMUM }).createAlarm(this, `${name}-dead-letters`, {
        alarmDescription: `SDK metrics batches failed ${METRICS_MAX_RECEIVE_COUNT} times and wait in the ${name} dead-letter queue: fix the cause, then redrive them`,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }));
  }

  /**
   * A stage's queue. Its visibility timeout is six times the function's timeout plus the batching
   * window, as Lambda's documentation asks, so a batch still being processed is not delivered again.
   */
  private queue(id: string, deadLetterQueue: sqs.Queue, stage: { windowSeconds: number; timeoutSeconds: number }): sqs.Queue {
    return new sqs.Queue(this, id, {
      visibilityTimeout: Duration.seconds(6 * stage.timeoutSeconds + stage.windowSeconds),
      retentionPeriod: Duration.days(4),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: METRICS_MAX_RECEIVE_COUNT },
    });
  }

  /** Kept 14 days (SQS's longest), time to fix the cause and redrive. */
  private deadLetterQueue(id: string): sqs.Queue {
    return new sqs.Queue(this, id, {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
  }
}
