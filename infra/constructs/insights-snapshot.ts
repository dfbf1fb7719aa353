import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import type { Construct } from 'constructs';
import { SNAPSHOT_TABLE_ACCESS } from '../table-access.js';
import { ScheduledFunction } from './scheduled-function.js';

export interface InsightsSnapshotProps {
  table: ITable;
  tableHasIndexes?: boolean;
}

/**
 * The daily insights snapshot (E14's trends): a function on an EventBridge schedule, shortly
 * after midnight UTC so it sums up the whole previous day. It reads the table and writes only
 * the snapshot partition.
 */
export class InsightsSnapshot extends ScheduledFunction {
  constructor(scope: Construct, id: string, props: InsightsSnapshotProps) {
    super(scope, id, {
      ...props,
      entry: 'functions/snapshot/handler.ts',
      description: 'Feature toggles: daily insights snapshot',
      access: SNAPSHOT_TABLE_ACCESS,
      schedule: events.Schedule.cron({ minute: '5', hour: '0' }),
      scheduleDescription: 'Takes the insights snapshot of the day before',
      timeout: Duration.minutes(2),
      ids: { function: 'Snapshot', rule: 'Daily' },
    });
  }
}
