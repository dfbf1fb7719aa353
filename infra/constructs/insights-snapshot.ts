import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { SNAPSHOT_TABLE_ACCESS } from '../table-access.js';
import { ServiceFunction } from './service-function.js';
import { grantTableAccess } from './table-grants.js';

export interface InsightsSnapshotProps {
  table: ITable;
  tableHasIndexes?: boolean;
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
    grantTableAccess(this.function.function, props.table, SNAPSHOT_TABLE_ACCESS, { indexes: props.tableHasIndexes ?? false });
    this.rule = new events.Rule(this, 'Daily', {
      description: 'Takes the insights snapshot of the day before',
      schedule: events.Schedule.cron({ minute: '5', hour: '0' }),
      targets: [new targets.LambdaFunction(this.function.function, { retryAttempts: 2 })],
    });
  }
}
