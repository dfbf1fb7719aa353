import type { Group } from '../lib/http/route.js';
import { keys } from '../lib/store/table-design.js';

/**
 * The DynamoDB actions each function may use on the table: what its routes need and nothing
 * else (no Scan, no BatchWriteItem, no stream reads, no DescribeTable). Plain data without CDK,
 * so the stack grants from it and the route fuzz checks every action it sees on the wire
 * against it. A transaction needs the action of each of its items (ConditionCheckItem for a
 * condition on an item it does not write).
 */
export interface TableAccess {
  reads: readonly string[];
  writes: readonly string[];
  /** When set, writes only to items whose partition key matches one of these (IAM LeadingKeys). */
  writablePartitions?: readonly string[];
}

const READS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
const ITEM_WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'] as const;

/** Partition keys the SDK path may write, as IAM `dynamodb:LeadingKeys` patterns (ADR 4). */
export const SDK_USAGE_PARTITIONS = [keys.dailyMetrics('*').pk, keys.lastSeenAll().pk, keys.clientApps().pk] as const;

export const GROUP_TABLE_ACCESS: Record<Group, TableAccess> = {
  groups: { reads: READS, writes: ITEM_WRITES },
  // Strategy types are created, updated, deprecated, reactivated, and deleted when no feature uses them.
  strategies: { reads: READS, writes: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'] },
  features: { reads: READS, writes: ITEM_WRITES },
  projects: { reads: READS, writes: ITEM_WRITES },
  // The state export only reads; a person calling with a personal access token has its last use recorded.
  state: { reads: READS, writes: ['dynamodb:UpdateItem'], writablePartitions: [keys.personalTokenPartitions()] },
  access: { reads: READS, writes: ITEM_WRITES },
  // Insights, UI configuration and health read; the UI configuration records the instance id once;
  // deleting an application removes its registrations and their places in the scopes' counts.
  // Integrations are configured there too: each with its change event in one transaction, its id from a counter.
  instance: {
    reads: READS,
    writes: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
    writablePartitions: [keys.instance().pk, keys.clientApps().pk, keys.integrations().pk, keys.counter('integration').pk, keys.eventPartitions(),
      // Each transaction that writes events moves a counter of their month (ADR 26).
      keys.eventCountPartitions(),
      // Maintenance mode's setting, and the last use of a personal access token a person calls with.
      keys.maintenanceSettings().pk, keys.personalTokenPartitions(),
      // A project status completes the project's metrics-stage items once on a table from before them.
      keys.metricsStagePartitions()],
  },
  // The SDK path never changes what SDKs see (design §3): it writes only SDK usage.
  // Besides SDK usage, it counts the tokens each address asks Edge's unauthenticated validate about.
  client: { reads: READS, writes: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], writablePartitions: [...SDK_USAGE_PARTITIONS, keys.edgeValidationPartitions()] },
  // The Frontend API evaluates what the SDK path serves and reports usage the same way.
  frontend: { reads: READS, writes: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], writablePartitions: SDK_USAGE_PARTITIONS },
};

/**
 * The metrics store stage (ADR 15) adds to hourly counters and moves last-seen times, and moves
 * flags' lifecycle stages from the metrics (lib/client/metrics-lifecycle.ts): it reads a flag
 * (GetItem) and the environments (Query), and updates the flag and its project copy in one
 * transaction, never the revision. It keeps the names reported that are no flag
 * (lib/unknown-flags/recorder.ts): which names are flags is a keys-only BatchGetItem of the
 * features. UpdateItem on those partitions only; nothing is put or deleted.
 */
export const METRICS_TABLE_ACCESS: TableAccess = {
  reads: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'],
  writes: ['dynamodb:UpdateItem'],
  writablePartitions: [keys.dailyMetrics('*').pk, keys.lastSeenAll().pk, keys.feature('*').pk, keys.projectFeature('*', '*').pk, keys.unknownFlags().pk,
    // The flag's lifecycle stages from metrics, in its project's metrics-stage item too (same transaction).
    keys.metricsStagePartitions()],
};

/** The daily snapshot reads everything and writes only its own partition. */
export const SNAPSHOT_TABLE_ACCESS: TableAccess = { reads: READS, writes: ['dynamodb:PutItem'], writablePartitions: [keys.snapshots().pk] };

/**
 * The stored SDK snapshot's writer (ADR 20) reads like an SDK container and writes only the
 * snapshot's head and pages.
 */
export const SDK_SNAPSHOT_TABLE_ACCESS: TableAccess = { reads: READS, writes: ['dynamodb:PutItem'], writablePartitions: [keys.sdkSnapshotPartitions()] };

/**
 * The bootstrap custom resource seeds a fresh install and stores the admin token; it deletes
 * only the admin token a previous secret made, when the secret is replaced (issue 13, finding 5).
 */
export const BOOTSTRAP_TABLE_ACCESS: TableAccess = {
  reads: READS,
  writes: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem'],
};

/** The integrations' stream stage lists the integrations (one Query) and writes nothing. */
export const INTEGRATIONS_STREAM_TABLE_ACCESS: TableAccess = { reads: ['dynamodb:Query'], writes: [] };

/** The integrations' delivery stage reads each integration and writes only the delivery logs. */
export const INTEGRATIONS_DELIVERY_TABLE_ACCESS: TableAccess = {
  reads: ['dynamodb:GetItem', 'dynamodb:Query'],
  writes: ['dynamodb:PutItem'],
  writablePartitions: [keys.integrationDeliveryPartitions()],
};

/** Every action a function with this access may use. */
export const actionsOf = (access: TableAccess): string[] => [...access.reads, ...access.writes];
