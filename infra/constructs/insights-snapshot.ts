import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { keys } from '../../lib/store/table-design.js';
import { ServiceFunction } from './service-function.js';

export interface InsightsSnapshotProps {
  table: ITable;
}

/**
 * The daily insights snapshot (E14's trends): a function on an EventBridge schedule, shortly
 * after midnight UTC so it sums up the whole previous day. It reads the table and writes only
 * the snapshot partition.
 */
export class InsightsSnapshot extends Construct {
  readonly function: ServiceFunction;
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: InsightsSnapshotProps) {
    super(scope, id);
    this.function = new ServiceFunction(this, 'Snapshot', {
      entry: 'functions/snapshot/handler.ts',
      description: 'Feature toggles: daily insights snapshot',
      environment: { TABLE_NAME: props.table.tableName },
      timeout: Duration.minutes(2),
    });
    props.table.grantReadData(this.function.function);
    this.function.function.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:PutItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.snapshots().pk] } },
      }),
    );
    this.rule = new events.Rule(this, 'Daily', {
      description: 'Takes the insights snapshot of the day before',
      schedule: events.Schedule.cron({ minute: '5', hour: '0' }),
      targets: [new targets.LambdaFunction(this.function.function, { retryAttempts: 2 })],
    });
  }
}
