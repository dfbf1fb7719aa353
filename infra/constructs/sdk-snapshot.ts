import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import type { Construct } from 'constructs';
import { SDK_SNAPSHOT_TABLE_ACCESS } from '../table-access.js';
import { ScheduledFunction } from './scheduled-function.js';
import { REWRITE_POLICY } from '../../lib/client/stored-snapshot.js';

export interface SdkSnapshotProps {
  table: ITable;
  tableHasIndexes?: boolean;
}

/**
 * The stored SDK snapshot's writer (ADR 20): every few minutes it compares the stored snapshot
 * with the revision and rewrites it when enough has changed. It reads the table and writes only
 * the snapshot's own items, so the SDK functions stay unable to change what SDKs see. 1 GB: at
 * 50,000 flags it holds every feature, and compresses them.
 */
export class SdkSnapshot extends ScheduledFunction {
  constructor(scope: Construct, id: string, props: SdkSnapshotProps) {
    super(scope, id, {
      ...props,
      entry: 'functions/sdk-snapshot/handler.ts',
      description: 'Feature toggles: stored SDK snapshot writer',
      access: SDK_SNAPSHOT_TABLE_ACCESS,
      schedule: events.Schedule.rate(Duration.minutes(REWRITE_POLICY.checkEveryMinutes)),
      scheduleDescription: 'Rewrites the stored SDK snapshot when it is behind',
      // Shorter than the schedule: runs seldom overlap (and overlapping ones are harmless: ADR 20).
      timeout: Duration.minutes(4),
      memorySize: 1024,
      ids: { function: 'Writer', rule: 'Schedule' },
    });
  }
}
