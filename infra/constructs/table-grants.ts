import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { TableAccess } from '../table-access.js';

/**
 * Grants exactly the listed actions instead of CDK's grantReadData/grantReadWriteData, which
 * add Scan, BatchWriteItem, DescribeTable and stream reads that no function here uses.
 */
export function grantTableAccess(fn: IFunction, table: ITable, access: TableAccess, options: { indexes: boolean }): void {
  if (access.reads.length > 0) fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: [...access.reads],
      // Indexes hold projections of items the function may read anyway.
      resources: [table.tableArn, ...(options.indexes ? [`${table.tableArn}/index/*`] : [])],
    }),
  );
  if (access.writes.length === 0) return;
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: [...access.writes],
      resources: [table.tableArn],
      ...(access.writablePartitions
        ? { conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...access.writablePartitions] } } }
        : {}),
    }),
  );
}
