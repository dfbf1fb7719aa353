import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailable } from '../errors.js';
import { queryCollection } from '../store/query.js';
import { keys, type ItemKey } from '../store/table-design.js';
import { PROJECT_COPIES_MIGRATION, ProjectCopiesRecord } from './dynamo-feature-reads.js';
import { transactWriteDetailed, MAX_TRANSACTION_ITEMS, type TransactWriteItem } from '../store/transact.js';

/** The migration's name in the table's record of finished migrations. */
export { PROJECT_COPIES_MIGRATION };

/** Passes one run makes at most; features changed between passes are what the next pass repairs. */
const MAX_PASSES = 10;

/** Bytes of copies one migration transaction carries at most, under DynamoDB's 4 MB a transaction. */
const TRANSACTION_BYTES = 3_500_000;

export interface MakeCopiesOptions {
  /**
   * How long writers running code from before ADR 17 may still be finishing requests, which write
   * features without copies: the pass that decides the copies are complete starts only after this
   * long. In the cloud, API Gateway's 30 s integration timeout; locally nothing else writes.
   */
  settleMs: number;
  /** When to stop and leave the rest to the next run (epoch ms), so a large table never fails a deploy. */
  deadline?: number;
}

export type MakeCopiesOutcome = { state: 'done'; fixed: number } | { state: 'unfinished'; fixed: number; why: string };

/**
 * The copies of the features in their projects' partitions (ADR 17). A table made after ADR 17
 * has them from its first start (the seed records this migration as done); a table from before
 * gets them here, from the bootstrap on deploy and from `npm start`. Until the record exists,
 * readers of one project read every feature instead (`DynamoFeatureStore.listProject`).
 */
export class ProjectCopies {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
    /** The migration's record, shared with the process's feature reads so it is read once. */
    readonly record: ProjectCopiesRecord = new ProjectCopiesRecord(db, tableName),
  ) {}

  /** Whether every feature has its copy; one strongly consistent read until the answer is yes. */
  ready(): Promise<boolean> {
    return this.record.ready();
  }

  /** The migration record for a fresh table, written with the first start's data. */
  static doneItem(at: string): Record<string, unknown> {
    return { ...keys.migration(PROJECT_COPIES_MIGRATION), finishedAt: at };
  }

  /**
   * Compares every feature with the copies and repairs what differs, pass after pass, until a pass
   * begun after `settleMs` finds nothing to repair; then records the migration. Each repair is
   * conditional on the feature's version (or absence), so a feature changed meanwhile is left to the
   * next pass, and a copy is never made of a state that is no longer stored. Safe to run anywhere at
   * any time, concurrently too; what it does not finish the next run continues.
   */
  async make({ settleMs, deadline = Number.POSITIVE_INFINITY }: MakeCopiesOptions): Promise<MakeCopiesOutcome> {
    if (await this.ready()) return { state: 'done', fixed: 0 };
    const started = this.now();
    let fixed = 0;
    try {
      for (let pass = 1; ; pass += 1) {
        if (pass > MAX_PASSES) return { state: 'unfinished', fixed, why: `copies still differ after ${MAX_PASSES} passes` };
        const settled = this.now() - started >= settleMs;
        const repairs = onePerFeature(await this.repairs());
        if (repairs.length === 0 && settled) break;
        for (const batch of batches(repairs)) {
          if (this.now() >= deadline) return { state: 'unfinished', fixed, why: 'out of time' };
          const outcome = await transactWriteDetailed(this.db, batch.flatMap((repair) => repair.items));
          if (outcome.ok) fixed += batch.length;
        }
        if (repairs.length === 0) await new Promise((resolve) => setTimeout(resolve, Math.max(0, settleMs - (this.now() - started))));
      }
    } catch (error) {
      if (error instanceof ServiceUnavailable) return { state: 'unfinished', fixed, why: error.message };
      throw error;
    }
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: ProjectCopies.doneItem(new Date(this.now()).toISOString()) }));
    this.record.markDone();
    return { state: 'done', fixed };
  }

  /** What differs between the features and their copies, each as the items that repair it. */
  private async repairs(): Promise<Repair[]> {
    const features = await queryCollection(this.db, this.tableName, keys.features());
    const projects = new Set<string>(features.map((feature) => feature.project as string));
    for (const project of await queryCollection(this.db, this.tableName, keys.projects())) projects.add(project.id as string);
    const copies = new Map<string, Record<string, unknown>>();
    for (const project of projects) {
      for (const copy of await queryCollection(this.db, this.tableName, keys.projectFeatures(project))) {
        copies.set(`${project}\u0000${copy.name as string}`, copy);
      }
    }
    const repairs: Repair[] = [];
    for (const { pk: _pk, sk: _sk, ...feature } of features) {
      const name = feature.name as string;
      const at = keys.projectFeature(feature.project as string, name);
      const copy = copies.get(`${feature.project as string}\u0000${name}`);
      copies.delete(`${feature.project as string}\u0000${name}`);
      if (copy && copy.version === feature.version) continue;
      const bytes = Buffer.byteLength(JSON.stringify(feature));
      repairs.push({
        name,
        bytes,
        items: [
          this.featureIs(name, 'version = :version', { ':version': feature.version }),
          { Put: { TableName: this.tableName, Item: { ...feature, ...at } } },
        ],
      });
    }
    // Copies left over belong to a feature deleted or moved to another project.
    for (const copy of copies.values()) {
      const project = (copy.pk as string).slice('PROJECT_FEATURES#'.length);
      repairs.push({
        name: copy.name as string,
        bytes: 0,
        items: [
          this.featureIs(copy.name as string, 'attribute_not_exists(pk) OR #project <> :project', { ':project': project }, { '#project': 'project' }),
          { Delete: { TableName: this.tableName, Key: { pk: copy.pk, sk: copy.sk } as ItemKey } },
        ],
      });
    }
    return repairs;
  }

  private featureIs(name: string, condition: string, values: Record<string, unknown>, names?: Record<string, string>): TransactWriteItem {
    return {
      ConditionCheck: {
        TableName: this.tableName,
        Key: keys.feature(name),
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
        ...(names ? { ExpressionAttributeNames: names } : {}),
      },
    };
  }
}

interface Repair {
  /** The feature whose item the repair's condition checks. */
  name: string;
  bytes: number;
  items: TransactWriteItem[];
}

/**
 * At most one repair per feature in a pass: each checks the feature's item, and DynamoDB refuses a
 * transaction that names one item twice (a feature whose copy is stale and which also left a stray
 * copy elsewhere). The rest wait for the next pass, which finds them again.
 */
function onePerFeature(repairs: Repair[]): Repair[] {
  const seen = new Set<string>();
  return repairs.filter(({ name }) => !seen.has(name) && Boolean(seen.add(name)));
}

/** Repairs grouped under DynamoDB's 100 items and 4 MB a transaction. */
function batches(repairs: Repair[]): Repair[][] {
  const out: Repair[][] = [];
  let current: Repair[] = [];
  let bytes = 0;
  for (const repair of repairs) {
    if (current.length > 0 && ((current.length + 1) * 2 > MAX_TRANSACTION_ITEMS || bytes + repair.bytes > TRANSACTION_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(repair);
    bytes += repair.bytes;
  }
  if (current.length > 0) out.push(current);
  return out;
}
