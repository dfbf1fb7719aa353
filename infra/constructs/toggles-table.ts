import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import type { TableDefinition } from '../../lib/store/table-design.js';

export interface TogglesTableProps {
  /** The single-table design; the stack never spells a key name itself. */
  definition: TableDefinition;
}

/** The one DynamoDB table, created from the same definition the local engine uses. */
export class TogglesTable extends Construct {
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: TogglesTableProps) {
    super(scope, id);
    const { definition } = props;

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: definition.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: definition.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Items with this attribute (the SDK change log, ADR 16) are deleted some time after it passes.
      timeToLiveAttribute: definition.timeToLiveAttribute,
      // New items' images, read by the integrations' stream stage (filtered to change events):
      // events are delivered from what was stored, so no write path can forget to send them.
      stream: dynamodb.StreamViewType.NEW_IMAGE,
      // Feature configuration outlives the stack: deleting or replacing the stack keeps the data.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const index of definition.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
  }
}
