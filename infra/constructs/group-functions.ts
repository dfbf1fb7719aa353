import { Tags } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { GROUPS, type Group } from '../../lib/api/route-types.js';
import { ServiceFunction } from './service-function.js';

/** Marks each endpoint group's function, for people in the console and for the stack tests. */
export const GROUP_TAG = 'toggles:endpoint-group';

/** Only the SDK path is read-only: it serves polls and never changes data (design §3). */
const READ_ONLY_GROUPS: ReadonlySet<Group> = new Set<Group>(['client']);

export interface GroupFunctionsProps {
  table: ITable;
  /** The public base URL the service reports about itself (UNLEASH_URL). */
  unleashUrl: string;
}

/** One Lambda per endpoint group, each with exactly the table access its group needs. */
export class GroupFunctions extends Construct {
  readonly byGroup: Record<Group, IFunction>;

  constructor(scope: Construct, id: string, props: GroupFunctionsProps) {
    super(scope, id);
    const entries = GROUPS.map((group): [Group, IFunction] => {
      const { function: fn } = new ServiceFunction(this, group, {
        entry: `functions/${group}/handler.ts`,
        description: `Feature toggles: ${group} endpoints`,
        environment: { TABLE_NAME: props.table.tableName, UNLEASH_URL: props.unleashUrl },
      });
      Tags.of(fn).add(GROUP_TAG, group);
      if (READ_ONLY_GROUPS.has(group)) props.table.grantReadData(fn);
      else props.table.grantReadWriteData(fn);
      return [group, fn];
    });
    this.byGroup = Object.fromEntries(entries) as Record<Group, IFunction>;
  }
}
