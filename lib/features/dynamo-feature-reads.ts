import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Feature } from './model.js';
import { batchGet } from '../store/batch-get.js';
import { queryCollection } from '../store/query.js';
import { DATA_MIGRATIONS, keys } from '../store/table-design.js';
import { byName } from './rules/order.js';

export const PROJECT_COPIES_MIGRATION = DATA_MIGRATIONS.projectCopies;

/**
 * Whether the features' copies in their projects' partitions are all made (ADR 17): the
 * migration's record, read strongly consistently until it exists. Its own module, apart from the
 * migration that makes the copies (lib/features/dynamo-project-copies.ts), so a function that only
 * reads features (the SDK API's) bundles none of the feature store's writes.
 */
export class ProjectCopiesRecord {
  private known = false;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Whether every feature has its copy; one strongly consistent read until the answer is yes. */
  async ready(): Promise<boolean> {
    if (this.known) return true;
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.migration(PROJECT_COPIES_MIGRATION), ConsistentRead: true }),
    );
    this.known = Item !== undefined;
    return this.known;
  }

  /** The migration recorded by this process: no need to read it again. */
  markDone(): void {
    this.known = true;
  }
}

/**
 * The feature store's reads (lib/features/dynamo-store.ts adds the writes): what the process's
 * feature snapshot needs, and the reads of one feature or one project.
 */
export class DynamoFeatureReads {
  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly tableName: string,
    /** Whether the copies in each project's partition exist (ADR 17). */
    protected readonly copiesRecord: ProjectCopiesRecord = new ProjectCopiesRecord(db, tableName),
  ) {}

  async get(name: string): Promise<Feature | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.feature(name), ConsistentRead: true }),
    );
    return Item ? toFeature(Item) : undefined;
  }

  async getMany(names: readonly string[]): Promise<Feature[]> {
    return (await batchGet(this.db, this.tableName, names.map((name) => keys.feature(name)))).map(toFeature);
  }

  /**
   * Every feature, in name order. Once the copies exist (ADR 17), one Query per project, all at
   * once: each project's partition has its own read throughput (3,000 units a second), so reading
   * 50,000 flags in five projects takes a fifth of the time the one `FEATURES` partition allows.
   */
  async listAll(): Promise<Feature[]> {
    if (!(await this.copiesRecord.ready())) return (await queryCollection(this.db, this.tableName, keys.features())).map(toFeature);
    const projects = await queryCollection(this.db, this.tableName, keys.projects());
    const perProject = await Promise.all(projects.map((project) => this.listProject(project.id as string)));
    return perProject.flat().sort(byName);
  }

  /**
   * One Query of the project's partition of copies (ADR 17), strongly consistent like the
   * feature items: written in the same transactions, they hold the same versions. On a table whose
   * copies are not all made yet (lib/features/dynamo-project-copies.ts), every feature is read instead.
   */
  async listProject(project: string): Promise<Feature[]> {
    if (!(await this.copiesRecord.ready())) return (await this.listAll()).filter((feature) => feature.project === project);
    return (await queryCollection(this.db, this.tableName, keys.projectFeatures(project))).map(toFeature);
  }
}

export function toFeature(item: Record<string, unknown>): Feature {
  const { pk: _pk, sk: _sk, ...feature } = item;
  return feature as unknown as Feature;
}
