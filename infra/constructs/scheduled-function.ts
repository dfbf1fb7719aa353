import type { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { TableAccess } from '../table-access.js';
import { ServiceFunction } from './service-function.js';
import { grantTableAccess } from './table-grants.js';

export interface ScheduledFunctionProps {
  table: ITable;
  tableHasIndexes?: boolean;
  /** The handler module; it takes no input (what it works on is read from the table when it runs). */
  entry: string;
  description: string;
  access: TableAccess;
  schedule: events.Schedule;
  scheduleDescription: string;
  timeout: Duration;
  memorySize?: number;
  /** Construct ids of the function and the rule (kept as first deployed, so their resources are not replaced). */
  ids: { function: string; rule: string };
}

/** A function an EventBridge schedule runs, with the table access it declares and nothing more. */
export class ScheduledFunction extends Construct {
  readonly function: ServiceFunction;
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: ScheduledFunctionProps) {
    super(scope, id);
    this.function = new ServiceFunction(this, props.ids.function, {
      entry: props.entry,
      description: props.description,
      environment: { TABLE_NAME: props.table.tableName },
      timeout: props.timeout,
      ...(props.memorySize ? { memorySize: props.memorySize } : {}),
    });
    grantTableAccess(this.function.function, props.table, props.access, { indexes: props.tableHasIndexes ?? false });
    this.rule = new events.Rule(this, props.ids.rule, {
      description: props.scheduleDescription,
      schedule: props.schedule,
      targets: [new targets.LambdaFunction(this.function.function, { retryAttempts: 2 })],
    });
  }
}
